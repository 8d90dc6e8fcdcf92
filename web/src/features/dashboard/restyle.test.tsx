import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { DynamicCode } from './api/types'
import { dynamicCode as menuCard, staticCode } from './test-fixtures'

// The Restyle and Duplicate actions of the cards, with the app's wiring:
// the restyle dialog is the generator's.

const dynamicCode = {
  ...menuCard,
  // The record's style, which the dialog starts from.
  fgColor: '#1A237E',
  bgColor: '#FFFFFF',
  gradientColor: '',
  dotShape: 'square',
  cornerShape: 'circle',
  innerCornerShape: 'square',
  logoFilePath: '/logo/55',
  logoFileName: 'brand.png',
  logoSize: 'medium',
  errorCorrectionLevel: 'Q',
} satisfies DynamicCode & Record<string, unknown>

const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320"><path d="M0 0H1V1H0Z"/></svg>'

type Handlers = Parameters<typeof stubFetch>[0]

function stubDashboard(handlers: Handlers = {}) {
  return stubFetch({
    'GET /api/user': () => json(alice),
    'GET /api/codes': (_, url) =>
      json({ items: url.searchParams.get('status') === 'paused' ? [{ ...dynamicCode, id: 4, name: 'Old flyer', isPaused: true }] : [dynamicCode, staticCode], nextCursor: null }),
    'GET /api/trial-status': () => json({ dynamicQRUsed: 1, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    ...handlers,
  })
}

const calls = (mock: ReturnType<typeof stubFetch>, method: string, url: string) =>
  mock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method)

const formOf = (call: Parameters<typeof fetch> | undefined) => {
  const body = call?.[1]?.body
  expect(body).toBeInstanceOf(FormData)
  return Object.fromEntries((body as FormData).entries())
}

async function card(name: string) {
  const heading = await screen.findByRole('heading', { name })
  const el = heading.closest('[data-testid="qr-card"]')
  if (!(el instanceof HTMLElement)) throw new Error(`no card for ${name}`)
  return el
}

describe('Restyle', () => {
  it("opens the generator's style tabs on the code's style, previews each change and saves the whole style", async () => {
    const mock = stubDashboard({
      'POST /api/dynamic-qrcodes/3/style/preview': () => json({ qrCode: svg, data: dynamicCode.shortUrl }),
      'PUT /api/dynamic-qrcodes/3/style': () => json({ ...dynamicCode, dotShape: 'circle' }),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Restyle' }))
    const dialog = await screen.findByRole('dialog', { name: 'Restyle QR Code' })
    expect(within(dialog).getByText(/Its short link stays the same/)).toBeInTheDocument()

    // The preview is the server's drawing of the saved style.
    await waitFor(() => expect(calls(mock, 'POST', '/api/dynamic-qrcodes/3/style/preview')).toHaveLength(1))
    expect(formOf(calls(mock, 'POST', '/api/dynamic-qrcodes/3/style/preview')[0])).toMatchObject({
      fgColor: '#1A237E',
      cornerShape: 'circle',
      logoId: '55',
      errorCorrectionLevel: 'Q',
      size: '320',
    })
    expect(await within(dialog).findByRole('img', { name: 'QR code preview' })).toHaveAttribute('src', expect.stringContaining('data:image/svg+xml'))
    expect(within(dialog).getByText(dynamicCode.shortUrl)).toBeInTheDocument()

    // A change asks for a new preview.
    const body = within(dialog).getByRole('radiogroup', { name: 'Body style' })
    await userEvent.click(within(body).getByRole('radio', { name: 'Circle' }))
    await waitFor(() => expect(calls(mock, 'POST', '/api/dynamic-qrcodes/3/style/preview')).toHaveLength(2))
    expect(formOf(calls(mock, 'POST', '/api/dynamic-qrcodes/3/style/preview')[1])).toMatchObject({ dotShape: 'circle' })

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Style' }))
    expect(await screen.findByText('Code restyled')).toBeInTheDocument()
    const sent = formOf(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/style')[0])
    expect(sent).toMatchObject({ fgColor: '#1A237E', dotShape: 'circle', cornerShape: 'circle', logoId: '55', errorCorrectionLevel: 'Q' })
    expect(sent).not.toHaveProperty('size')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Restyle QR Code' })).not.toBeInTheDocument())
  })

  it("shows the preview's refusal and does not offer to save it", async () => {
    const mock = stubDashboard({
      'POST /api/qrcodes/7/style/preview': () =>
        json({ message: 'The colours have too little contrast to scan', errors: { fgColor: 'The colours have too little contrast to scan' } }, 400),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Shop front')).getByRole('button', { name: 'Restyle' }))
    const dialog = await screen.findByRole('dialog', { name: 'Restyle QR Code' })
    expect(await within(dialog).findByText('Preview unavailable: The colours have too little contrast to scan')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Save Style' })).toBeDisabled()
    // A static code has no error correction choice: it is always High.
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Logo' }))
    expect(within(dialog).queryByLabelText('Error correction')).not.toBeInTheDocument()
    expect(calls(mock, 'PUT', '/api/qrcodes/7/style')).toHaveLength(0)
  })

  it("toasts the server's reason when saving fails and keeps the dialog open", async () => {
    stubDashboard({
      'POST /api/dynamic-qrcodes/3/style/preview': () => json({ qrCode: svg, data: dynamicCode.shortUrl }),
      'PUT /api/dynamic-qrcodes/3/style': () => json({ message: 'Logo not found', errors: { logoId: 'Logo not found' } }, 404),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Restyle' }))
    const dialog = await screen.findByRole('dialog', { name: 'Restyle QR Code' })
    await within(dialog).findByRole('img', { name: 'QR code preview' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Style' }))
    expect(await screen.findByText('Restyle failed')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Restyle QR Code' })).toBeInTheDocument()
  })
})

describe('Duplicate', () => {
  it('saves a copy, confirms it and refreshes the lists', async () => {
    const mock = stubDashboard({
      'POST /api/qrcodes/7/duplicate': () => json({ ...staticCode, id: 8, name: 'Shop front (copy)' }, 201),
    })
    renderApp('/dashboard')
    const lists = () => mock.mock.calls.filter(([u]) => String(u).startsWith('/api/codes?')).length
    const before = lists()
    await userEvent.click(within(await card('Shop front')).getByRole('button', { name: 'Duplicate' }))
    expect(await screen.findByText('Code duplicated')).toBeInTheDocument()
    expect(screen.getByText('"Shop front (copy)" is in My QR Codes.')).toBeInTheDocument()
    expect(calls(mock, 'POST', '/api/qrcodes/7/duplicate')).toHaveLength(1)
    await waitFor(() => expect(lists()).toBeGreaterThan(before))
  })

  it("shows the server's limit message for a dynamic copy past the limit", async () => {
    stubDashboard({
      'POST /api/dynamic-qrcodes/3/duplicate': () =>
        json({ message: 'You have reached your limit of 12 dynamic QR codes. Please upgrade to create more.' }, 403),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Duplicate' }))
    expect(await screen.findByText('Duplicate failed')).toBeInTheDocument()
    expect(screen.getByText('You have reached your limit of 12 dynamic QR codes. Please upgrade to create more.')).toBeInTheDocument()
  })

  it('is not offered on paused cards, nor is Restyle', async () => {
    stubDashboard()
    renderApp('/dashboard?view=paused')
    const paused = await card('Old flyer')
    expect(within(paused).queryByRole('button', { name: 'Duplicate' })).not.toBeInTheDocument()
    expect(within(paused).queryByRole('button', { name: 'Restyle' })).not.toBeInTheDocument()
  })
})

import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { Toaster } from '@/components/ui/toaster'
import { userQueryKey } from '@/lib/auth'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, stubFetch } from '@/test/render-app'
import { imageVersion } from '@/lib/code-image'
import { Generator, type GeneratorProps } from '../index'

type Handlers = Parameters<typeof stubFetch>[0]

const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320"><path d="M0 0H1V1H0Z"/></svg>'
const noSubdomain = () => json({ isSubdomain: false, qrType: null, subdomain: null })

function renderGenerator({
  path = '/',
  signedIn = false,
  handlers = {},
  props = {},
}: { path?: string; signedIn?: boolean; handlers?: Handlers; props?: GeneratorProps } = {}) {
  const mock = stubFetch({
    'GET /api/subdomain-info': noSubdomain,
    'POST /api/track-generation': () => json({ id: 1 }, 201),
    ...handlers,
  })
  const client = createQueryClient()
  client.setQueryData(userQueryKey, signedIn ? alice : null)
  const router = createMemoryRouter([{ path: '*', element: <Generator {...props} /> }], { initialEntries: [path] })
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  )
  return { mock, router, client }
}

/** A form field by its label, which may end in the required asterisk. */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}\\*?$`))

const typeBox = () => screen.getByRole('combobox', { name: 'QR code type' })

async function chooseType(label: string) {
  await userEvent.click(typeBox())
  await userEvent.click(await screen.findByRole('option', { name: label }))
}

function jsonBody(mock: ReturnType<typeof stubFetch>, url: string, nth = -1) {
  const calls = mock.mock.calls.filter(([u, init]) => u === url && init?.method === 'POST')
  const call = calls.at(nth)
  return call ? (JSON.parse(String(call[1]?.body)) as Record<string, unknown>) : undefined
}

function formBody(mock: ReturnType<typeof stubFetch>, url: string) {
  const call = mock.mock.calls.find(([u, init]) => u === url && init?.method === 'POST')
  const body = call?.[1]?.body
  expect(body).toBeInstanceOf(FormData)
  return Object.fromEntries((body as FormData).entries())
}

beforeEach(() => {
  sessionStorage.clear()
  localStorage.clear()
})

afterEach(() => vi.useRealTimers())

describe('the type dropdown', () => {
  it('lists the 16 types by label, then the 8 hosted page types', async () => {
    renderGenerator()
    expect(screen.getByRole('heading', { name: 'Generate Your QR Code' })).toBeInTheDocument()
    await userEvent.click(typeBox())
    expect(await screen.findAllByRole('option')).toHaveLength(24)
    const labels = [
      'Website',
      'Contact',
      'Payment',
      'PDF',
      'Social Media',
      'Images',
      'Ratings',
      'Email',
      'Location',
      'Events',
      'Apps',
      'SMS',
      'Bitcoin',
      'Plain Text',
      'WiFi',
      'GS1 Digital Link',
    ]
    for (const label of labels) expect(screen.getByRole('option', { name: label })).toBeInTheDocument()
    for (const label of ['vCard Plus', 'Link list', 'Menu', 'Gallery', 'Coupon', 'Event', 'App download', 'Business page']) {
      expect(screen.getByRole('option', { name: label })).toBeInTheDocument()
    }
  })

  it("checks a GS1 Digital Link's GTIN as it is typed", async () => {
    renderGenerator()
    await chooseType('GS1 Digital Link')
    await userEvent.type(field('GTIN'), '96385075')
    expect(await screen.findByText('The check digit should be 4, not 5')).toBeInTheDocument()
    await userEvent.clear(field('GTIN'))
    await userEvent.type(field('GTIN'), '96385074')
    expect(await screen.findByText('Check digit 4 is correct (GTIN-8)')).toBeInTheDocument()
    expect(field('Batch or lot (AI 10)')).toBeInTheDocument()
    expect(field('Domain')).toBeInTheDocument()
  })

  it("resets the form to the chosen type's empty defaults, with asterisks on required fields", async () => {
    renderGenerator()
    await userEvent.type(field('Website URL'), 'https://example.com')
    await chooseType('Contact')
    expect(field('First name')).toHaveValue('')
    expect(screen.getByText('First name').parentElement).toHaveTextContent('First name*')
    expect(screen.getByText('Last name').parentElement).toHaveTextContent(/^Last name$/)
    await chooseType('Website')
    expect(field('Website URL')).toHaveValue('')
  })

  it('offers the platform and category options', async () => {
    renderGenerator()
    await chooseType('Apps')
    const platforms = within(field('Platform')).getAllByRole('option').map((o) => o.getAttribute('value'))
    expect(platforms).toEqual(['', 'appstore', 'googleplay', 'microsoft', 'amazon'])
    expect(within(field('Category')).getAllByRole('option')).toHaveLength(21)
    await chooseType('Ratings')
    const reviews = within(field('Review platform')).getAllByRole('option').map((o) => o.getAttribute('value'))
    expect(reviews).toEqual(['', 'google', 'yelp', 'tripadvisor', 'facebook', 'trustpilot'])
  })

  it('makes a WiFi code: security options, no password for an open network, hidden as true or false', async () => {
    const { mock } = renderGenerator({
      handlers: { 'POST /api/generate-qrcode': () => json({ id: 3, qrCode: svg, data: 'WIFI:T:nopass;S:Cafe;H:true;;' }) },
    })
    await chooseType('WiFi')
    expect(screen.getByText('Network name (SSID)').parentElement).toHaveTextContent('Network name (SSID)*')
    expect(screen.getByText('Password').parentElement).toHaveTextContent('Password*')
    const security = field('Security')
    expect(within(security).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['WPA', 'WEP', 'nopass'])
    expect(security).toHaveValue('WPA')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Network name is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()

    await userEvent.type(field('Network name (SSID)'), 'Cafe')
    await userEvent.selectOptions(security, 'nopass')
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument()
    const hidden = field('Hidden network (not broadcast)')
    expect(hidden).not.toBeChecked()
    await userEvent.click(hidden)
    expect(hidden).toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('QR Code generated')).toBeInTheDocument()
    const sent = mock.mock.calls
      .filter(([u]) => u === '/api/generate-qrcode')
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>)
      .find((b) => b.temporary === false)
    expect(sent).toMatchObject({ qrType: 'wifi', ssid: 'Cafe', encryption: 'nopass', hidden: 'true' })
  })

  it('makes a Plain Text code from a text area', async () => {
    renderGenerator()
    await chooseType('Plain Text')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Text is required')).toBeInTheDocument()
    expect(field('Text').tagName).toBe('TEXTAREA')
  })

  it("opens 'Premium Feature' for PDF when signed out, and leaves the type alone", async () => {
    const { router } = renderGenerator()
    await chooseType('PDF')
    const dialog = await screen.findByRole('dialog', { name: 'Premium Feature' })
    expect(dialog).toHaveTextContent('Please sign in or create an account to access this functionality.')
    expect(within(dialog).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/auth?mode=register')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(typeBox()).toHaveTextContent('Website')
    await chooseType('PDF')
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('link', { name: 'Sign In' }))
    expect(router.state.location.pathname).toBe('/auth')
  })

  it('lets a signed-in user choose PDF', async () => {
    renderGenerator({ signedIn: true })
    await chooseType('PDF')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(typeBox()).toHaveTextContent('PDF')
    expect(screen.getByText('PDF file').parentElement).toHaveTextContent('PDF file*')
  })

  it.each(['Events', 'SMS', 'Bitcoin'])("opens 'Future Feature' for %s, for everyone, and keeps the type", async (label) => {
    renderGenerator({ signedIn: true })
    await chooseType(label)
    const dialog = await screen.findByRole('dialog', { name: 'Future Feature' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Got it' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(typeBox()).toHaveTextContent('Website')
  })
})

describe('validation', () => {
  it('shows the schema messages on submit and sends nothing', async () => {
    const { mock } = renderGenerator()
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('URL is required')).toBeInTheDocument()
    await chooseType('Payment')
    const price = field('Price (USD)')
    expect(price).toHaveAttribute('step', '0.01')
    expect(price).toHaveAttribute('min', '0.01')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Product name is required')).toBeInTheDocument()
    expect(screen.getByText('Price must be greater than 0')).toBeInTheDocument()
    expect(screen.getByText('Product description is required')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/generate-qrcode')).toBe(false)
  })

  it('switches back to Purpose when the fields are invalid', async () => {
    renderGenerator()
    await userEvent.click(screen.getByRole('tab', { name: 'Frame' }))
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('URL is required')).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Purpose' })).toHaveAttribute('aria-selected', 'true')
  })
})

describe('for visitors', () => {
  it("shows the purple banner for Second Color and doesn't switch", async () => {
    renderGenerator()
    await userEvent.click(screen.getByRole('tab', { name: 'Colors' }))
    await userEvent.click(await screen.findByRole('radio', { name: 'Second Color' }))
    expect(screen.getByText(/Second color requires an account!/).parentElement).toHaveTextContent(
      'Second color requires an account! Sign up for free to unlock advanced color options.',
    )
    expect(screen.getByRole('radio', { name: 'Single Color' })).toHaveAttribute('aria-checked', 'true')
    expect(screen.queryByText('Second color')).not.toBeInTheDocument()
  })

  it('blurs and disables the Logo tab behind its banner', async () => {
    renderGenerator()
    await userEvent.click(screen.getByRole('tab', { name: 'Logo' }))
    expect((await screen.findByText(/Logo features require an account!/)).parentElement).toHaveTextContent(
      'Logo features require an account! Sign up for free to add custom branding.',
    )
    const options = document.querySelector('fieldset[aria-label="Logo options"]')
    expect(options).toBeDisabled()
    expect(options?.className).toMatch(/blur/)
  })

  it("opens 'Unlock Advanced Analytics' from the Scan tracking switch", async () => {
    renderGenerator()
    await userEvent.click(screen.getByRole('switch', { name: 'Scan tracking' }))
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Advanced Analytics' })
    expect(dialog).toHaveTextContent('Free forever • No credit card required • 30 seconds signup')
    expect(within(dialog).getByRole('link', { name: 'Create Free Account' })).toHaveAttribute('href', '/auth?mode=register')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Maybe Later' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Scan tracking' })).not.toBeChecked()
  })

  it('sees a sign-in prompt beside the submit button and no Static/Dynamic toggle', () => {
    renderGenerator()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth')
    expect(screen.queryByRole('radiogroup', { name: 'Code mode' })).not.toBeInTheDocument()
  })

  it('generates, downloads the PNG and is invited to sign up a second later', async () => {
    let release: (r: Response) => void = () => {}
    const { mock } = renderGenerator({
      handlers: {
        'POST /api/generate-qrcode': (init) => {
          const body = JSON.parse(String(init?.body)) as { temporary: boolean }
          if (body.temporary) return json({ qrCode: svg, data: 'https://example.com' })
          return new Promise<Response>((resolve) => (release = resolve))
        },
        'POST /api/download-qrcode': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }),
        'GET /api/white-label/config': () => json({ isDefault: true, googleSignIn: true }),
      },
    })
    const createObjectURL = vi.fn(() => 'blob:code')
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})

    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    const working = await screen.findByRole('button', { name: 'Generating...' })
    expect(working).toBeDisabled()
    release(json({ id: 41, qrCode: svg, data: 'https://example.com' }))
    expect(await screen.findByText('QR Code generated')).toBeInTheDocument()
    expect(screen.getByText(/Sign in to save/)).toBeInTheDocument()

    const sent = jsonBody(mock, '/api/generate-qrcode')
    expect(sent).toMatchObject({ qrType: 'url', url: 'https://example.com', temporary: false, fgColor: '#000000', gradientColor: '' })
    expect(sent?.sessionId).toMatch(/\S+/)
    expect(localStorage.getItem('qrSessionId')).toBe(sent?.sessionId)

    await userEvent.click(screen.getByRole('button', { name: 'Download PNG' }))
    expect(await screen.findByText('QR Code Downloaded')).toBeInTheDocument()
    expect(jsonBody(mock, '/api/download-qrcode')).toMatchObject({ qrType: 'url', format: 'png', generationId: 41 })
    expect(clicked).toHaveBeenCalledOnce()
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('url.png')

    expect(screen.queryByRole('button', { name: 'Maybe later' })).not.toBeInTheDocument()
    const dialog = await screen.findByRole('dialog', {}, { timeout: 2000 })
    // The dialog asks for the sign-in options as it first opens.
    expect(await within(dialog).findByRole('link', { name: 'Sign up with Google' })).toHaveAttribute('href', '/auth/google')
    expect(within(dialog).getByRole('link', { name: 'Sign up with Email' })).toHaveAttribute('href', '/auth?mode=register')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Maybe later' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    // Once per visit: a second download is not followed by the dialog.
    await userEvent.click(screen.getByRole('button', { name: 'Download PNG' }))
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(2))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('offers only e-mail sign-up after a download when Google sign-in is off', async () => {
    renderGenerator({
      handlers: {
        'POST /api/generate-qrcode': () => json({ id: 41, qrCode: svg, data: 'https://example.com' }),
        'POST /api/download-qrcode': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }),
        'GET /api/white-label/config': () => json({ isDefault: true, googleSignIn: false }),
      },
    })
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:code'), revokeObjectURL: vi.fn() }))
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Download PNG' }))
    const dialog = await screen.findByRole('dialog', {}, { timeout: 2000 })
    expect(within(dialog).getByRole('link', { name: 'Sign up with Email' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('link', { name: /Google/ })).not.toBeInTheDocument()
  })

  it("shows the visitor's download failure", async () => {
    renderGenerator({
      handlers: {
        'POST /api/generate-qrcode': () => json({ id: 1, qrCode: svg, data: 'https://example.com' }),
        'POST /api/download-qrcode': () => new Response('boom', { status: 500 }),
      },
    })
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Download PNG' }))
    expect(await screen.findByText('Download Failed')).toBeInTheDocument()
    expect(screen.getByText('There was a problem downloading your QR code image.')).toBeInTheDocument()
  })

  it('shows the generation failure', async () => {
    renderGenerator({ handlers: { 'POST /api/generate-qrcode': () => json({ message: 'nope' }, 500) } })
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('There was a problem generating your QR code.')).toBeInTheDocument()
  })
})

describe('the live preview', () => {
  it('asks the server for a temporary preview and shows it as an image', async () => {
    const { mock } = renderGenerator({
      handlers: { 'POST /api/generate-qrcode': () => json({ qrCode: svg, data: 'https://example.com/menu' }) },
    })
    await userEvent.type(field('Website URL'), 'example.com/menu')
    const img = await screen.findByRole('img', { name: 'QR code preview' }, { timeout: 3000 })
    expect(img.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
    expect(jsonBody(mock, '/api/generate-qrcode')).toMatchObject({
      qrType: 'url',
      url: 'https://example.com/menu',
      temporary: true,
      size: 320,
    })
  })

  it('previews the new shapes and a radial gradient as they are picked', async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: { 'POST /api/generate-qrcode': () => json({ qrCode: svg, data: 'https://example.com/menu' }) },
    })
    await userEvent.type(field('Website URL'), 'example.com/menu')
    await screen.findByRole('img', { name: 'QR code preview' }, { timeout: 3000 })
    await userEvent.click(screen.getByRole('tab', { name: /Colors/ }))
    await userEvent.click(within(screen.getByRole('radiogroup', { name: 'Body style' })).getByRole('radio', { name: 'Classy' }))
    await userEvent.click(screen.getByRole('radio', { name: 'Second Color' }))
    await userEvent.click(within(screen.getByRole('radiogroup', { name: 'Gradient type' })).getByRole('radio', { name: 'Radial' }))
    await waitFor(
      () =>
        expect(jsonBody(mock, '/api/generate-qrcode')).toMatchObject({
          temporary: true,
          dotShape: 'classy',
          gradientColor: '#ff00ff',
          gradientType: 'radial',
          gradientAngle: 135,
          gradientOnEyes: false,
        }),
      { timeout: 3000 },
    )
  })

  it('says quietly when the server cannot draw it', async () => {
    renderGenerator({
      handlers: {
        'POST /api/generate-qrcode': () => json({ message: 'The colours have too little contrast to scan' }, 400),
      },
    })
    await userEvent.type(field('Website URL'), 'https://example.com')
    expect(
      await screen.findByText('Preview unavailable: The colours have too little contrast to scan', {}, { timeout: 3000 }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Generate QR Code' })).toBeEnabled()
  })
})

describe('for signed-in users', () => {
  const saved = { id: 7, name: 'Website 2026-11-21', qrType: 'url', qrMode: 'static', data: 'https://example.com' }

  it('saves a static code as multipart and refreshes the lists', async () => {
    const onSaved = vi.fn()
    const { mock, client } = renderGenerator({
      signedIn: true,
      props: { variant: 'dashboard', onSaved },
      handlers: {
        'POST /api/qrcodes': () => json(saved, 201),
        'POST /api/track-generation': () => json({ id: 3 }, 201),
        'GET /api/trial-status': () => json({ canCreateDynamicQR: true, dynamicQRLimit: 12 }),
      },
    })
    const invalidate = vi.spyOn(client, 'invalidateQueries')
    expect(screen.getByRole('radio', { name: 'Static' })).toHaveAttribute('aria-checked', 'true')
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.type(field('Name (optional)'), 'Flyer')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('QR Code saved')).toBeInTheDocument()
    expect(formBody(mock, '/api/qrcodes')).toMatchObject({
      name: 'Flyer',
      qrType: 'url',
      url: 'https://example.com',
      qrMode: 'static',
      fgColor: '#000000',
      bgColor: '#FFFFFF',
      dotShape: 'square',
      enableFrame: 'false',
    })
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/qrcodes'] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/dynamic-qrcodes'] })
    expect(jsonBody(mock, '/api/track-generation')).toMatchObject({ qrCodeId: 7, qrType: 'url', hasLogo: false })
    expect(screen.getByRole('img', { name: 'QR code preview' })).toHaveAttribute('src', `/api/qrcodes/7/image?format=svg&v=${imageVersion(saved)}`)
  })

  it("sends a location's place name as locationName", async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: { 'POST /api/qrcodes': () => json({ ...saved, qrType: 'location' }, 201) },
    })
    await chooseType('Location')
    await userEvent.type(field('Address'), '1 Market St')
    await userEvent.type(field('Place name'), 'Office')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    await screen.findByText('QR Code saved')
    const sent = formBody(mock, '/api/qrcodes')
    expect(sent).toMatchObject({ qrType: 'location', address: '1 Market St', locationName: 'Office' })
    expect(sent).not.toHaveProperty('name')
  })

  it("shows 'There was a problem saving your QR code.' when saving fails", async () => {
    renderGenerator({ signedIn: true, handlers: { 'POST /api/qrcodes': () => json({ message: 'x' }, 500) } })
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('There was a problem saving your QR code.')).toBeInTheDocument()
  })

  it('turns Scan tracking into Dynamic mode and creates a dynamic code', async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: {
        'GET /api/trial-status': () => json({ canCreateDynamicQR: true, dynamicQRLimit: 12 }),
        'POST /api/dynamic-qrcodes': () =>
          json({ ...saved, qrMode: 'dynamic', shortCode: 'abc', shortUrl: 'http://x/d/abc' }, 201),
      },
    })
    await userEvent.click(screen.getByRole('switch', { name: 'Scan tracking' }))
    expect(screen.getByRole('radio', { name: 'Dynamic' })).toHaveAttribute('aria-checked', 'true')
    await userEvent.type(field('Website URL'), 'https://example.com/menu')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Dynamic QR Code generated')).toBeInTheDocument()
    const sent = formBody(mock, '/api/dynamic-qrcodes')
    expect(sent).toMatchObject({
      destination: 'https://example.com/menu',
      qrType: 'url',
      qrStyle: 'squares',
      errorCorrectionLevel: 'M',
    })
    expect(JSON.parse(String(sent.qrData))).toEqual({ url: 'https://example.com/menu' })
  })

  it('chooses a short code, shows whether it is free as it is typed, and sends it', async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: {
        'GET /api/trial-status': () => json({ canCreateDynamicQR: true, dynamicQRLimit: 12 }),
        'GET /api/short-codes/availability': (_init, url) => {
          const code = url.searchParams.get('shortCode') ?? ''
          return code.toLowerCase() === 'taken'
            ? json({ shortCode: code, available: false, code: 'taken', message: 'This short code is already taken on this domain' })
            : json({ shortCode: code, available: true })
        },
        'POST /api/dynamic-qrcodes': () =>
          json({ ...saved, qrMode: 'dynamic', shortCode: 'spring-menu', shortUrl: 'http://x/d/spring-menu' }, 201),
      },
    })
    await userEvent.click(screen.getByRole('switch', { name: 'Scan tracking' }))
    const input = await screen.findByLabelText('Short code (optional)')
    await userEvent.type(input, 'a b')
    expect(screen.getByTestId('short-code-status')).toHaveTextContent('Use 3 to 64 letters, digits, - or _')
    await userEvent.clear(input)
    await userEvent.type(input, 'Taken')
    expect(await screen.findByText('This short code is already taken on this domain')).toBeInTheDocument()
    await userEvent.clear(input)
    await userEvent.type(input, 'spring-menu')
    expect(await screen.findByText('Available')).toBeInTheDocument()
    await userEvent.type(field('Website URL'), 'https://example.com/menu')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Dynamic QR Code generated')).toBeInTheDocument()
    expect(formBody(mock, '/api/dynamic-qrcodes')).toMatchObject({ shortCode: 'spring-menu' })
  })

  it("shows the server's refusal of a taken short code on the field", async () => {
    renderGenerator({
      signedIn: true,
      handlers: {
        'GET /api/trial-status': () => json({ canCreateDynamicQR: true, dynamicQRLimit: 12 }),
        'GET /api/short-codes/availability': (_init, url) => json({ shortCode: url.searchParams.get('shortCode'), available: true }),
        'POST /api/dynamic-qrcodes': () =>
          json({ message: 'This short code is already taken on this domain', code: 'taken', errors: { shortCode: 'Taken just now' } }, 409),
      },
    })
    await userEvent.click(screen.getByRole('switch', { name: 'Scan tracking' }))
    await userEvent.type(await screen.findByLabelText('Short code (optional)'), 'racey')
    await userEvent.type(field('Website URL'), 'https://example.com/menu')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Taken just now')).toBeInTheDocument()
  })

  it('shows the dynamic limit from the server', async () => {
    renderGenerator({
      signedIn: true,
      handlers: {
        'POST /api/dynamic-qrcodes': () =>
          json({ message: 'You have reached your limit of 12 dynamic QR codes. Please upgrade to create more.' }, 403),
      },
    })
    await userEvent.click(screen.getByRole('radio', { name: 'Dynamic' }))
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Dynamic QR Code limit reached')).toBeInTheDocument()
    expect(screen.getByText('You have reached your limit of 12 dynamic QR codes. Please upgrade to create more.')).toBeInTheDocument()
  })

  it('blocks dynamic creation on the client when the trial says so', async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: { 'GET /api/trial-status': () => json({ canCreateDynamicQR: false, dynamicQRLimit: 12, dynamicQRUsed: 12 }) },
    })
    await waitFor(() => expect(mock.mock.calls.some(([u]) => u === '/api/trial-status')).toBe(true))
    await userEvent.click(screen.getByRole('radio', { name: 'Dynamic' }))
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('You have reached your limit of 12 dynamic QR codes. Please upgrade to create more.')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/dynamic-qrcodes')).toBe(false)
  })

  it("reports other dynamic failures with the status", async () => {
    renderGenerator({ signedIn: true, handlers: { 'POST /api/dynamic-qrcodes': () => new Response('', { status: 502 }) } })
    await userEvent.click(screen.getByRole('radio', { name: 'Dynamic' }))
    await userEvent.type(field('Website URL'), 'https://example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Failed to create dynamic QR code: 502')).toBeInTheDocument()
  })

  it('keeps types without a web address static', async () => {
    renderGenerator({ signedIn: true })
    await chooseType('Email')
    expect(screen.getByRole('switch', { name: 'Scan tracking' })).toBeDisabled()
    expect(screen.getByRole('radio', { name: 'Dynamic' })).toBeDisabled()
  })

  it('uploads a preset logo and sends its id with the preview', async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: {
        'GET /logos/instagram.png': () => new Response('png', { headers: { 'Content-Type': 'image/png' } }),
        'POST /api/upload-logo': () => json({ id: 9, logoUrl: '/logo/9', fileName: 'instagram.png' }, 201),
        'POST /api/generate-qrcode': () => json({ qrCode: svg, data: 'https://example.com' }),
      },
    })
    await userEvent.click(screen.getByRole('tab', { name: 'Logo' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Instagram' }))
    expect(await screen.findByRole('button', { name: 'Remove logo' })).toBeInTheDocument()
    const upload = mock.mock.calls.find(([u]) => u === '/api/upload-logo')
    const file = (upload?.[1]?.body as FormData).get('logoFile') as File
    expect(file.name).toBe('instagram.png')
    expect(file.type).toBe('image/png')
    await userEvent.click(screen.getByRole('tab', { name: 'Purpose' }))
    await userEvent.type(field('Website URL'), 'https://example.com')
    await waitFor(() => expect(jsonBody(mock, '/api/generate-qrcode')).toMatchObject({ logoId: 9 }), { timeout: 3000 })
  })

  it('refuses a logo that is not an image before uploading', async () => {
    const { mock } = renderGenerator({ signedIn: true })
    await userEvent.click(screen.getByRole('tab', { name: 'Logo' }))
    const input = await waitFor(() => field('Logo file'))
    await userEvent.upload(input, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }), { applyAccept: false })
    expect(await screen.findByText('Not an image')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/upload-logo')).toBe(false)
  })

  it('uploads a PDF and puts its id in the pdfFile field; a failure has its toast', async () => {
    let fail = true
    const { mock } = renderGenerator({
      signedIn: true,
      handlers: {
        'POST /api/upload-pdf': () =>
          fail ? json({ message: 'no' }, 415) : json({ id: 12, pdfUrl: 'http://x/pdf/12', fileName: 'menu.pdf' }, 201),
      },
    })
    await chooseType('PDF')
    const input = field('PDF file')
    expect(input).toHaveAttribute('accept', '.pdf,application/pdf')
    await userEvent.upload(input, new File(['%PDF-1.4'], 'menu.pdf', { type: 'application/pdf' }))
    expect(await screen.findByText('Failed to upload PDF file')).toBeInTheDocument()
    fail = false
    await userEvent.type(field('Title'), 'Menu')
    await userEvent.upload(input, new File(['%PDF-1.4'], 'menu.pdf', { type: 'application/pdf' }))
    expect(await screen.findByText('menu.pdf')).toBeInTheDocument()
    const sent = mock.mock.calls.filter(([u]) => u === '/api/upload-pdf').at(-1)?.[1]?.body as FormData
    expect(sent.get('pdfTitle')).toBe('Menu')
    expect(sent.get('pdfFile')).toBeInstanceOf(File)
  })

  it("shows 'Failed to upload image file' for the images type", async () => {
    renderGenerator({ handlers: { 'POST /api/upload-image': () => json({ message: 'no' }, 413) } })
    await chooseType('Images')
    const input = field('Image file')
    expect(input).toHaveAttribute('accept', 'image/*')
    await userEvent.upload(input, new File(['x'], 'a.png', { type: 'image/png' }))
    expect(await screen.findByText('Failed to upload image file')).toBeInTheDocument()
  })
})

describe('preselection', () => {
  it('takes ?qr={type}', () => {
    renderGenerator({ path: '/?qr=email' })
    expect(typeBox()).toHaveTextContent('Email')
    expect(field('Email address')).toBeInTheDocument()
  })

  it('applies and clears a stored template with its sample data', () => {
    sessionStorage.setItem(
      'selectedTemplate',
      JSON.stringify({ type: 'payment', title: 'Payment Link', data: { productName: 'Coffee', productPrice: 3.5 } }),
    )
    renderGenerator({ path: '/?qr=payment' })
    expect(typeBox()).toHaveTextContent('Payment')
    expect(field('Product name')).toHaveValue('Coffee')
    expect(field('Price (USD)')).toHaveValue(3.5)
    expect(screen.getByText('Template: Payment Link')).toBeInTheDocument()
    expect(sessionStorage.getItem('selectedTemplate')).toBeNull()
  })

  it('refuses a blocked type with its dialog', async () => {
    renderGenerator({ path: '/?qr=sms' })
    const dialog = await screen.findByRole('dialog', { name: 'Future Feature' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Got it' }))
    expect(typeBox()).toHaveTextContent('Website')
  })

  it('takes the type a subdomain names', async () => {
    renderGenerator({
      handlers: { 'GET /api/subdomain-info': () => json({ isSubdomain: true, qrType: 'contact', subdomain: 'contact' }) },
    })
    await waitFor(() => expect(typeBox()).toHaveTextContent('Contact'))
    expect(field('First name')).toBeInTheDocument()
  })

  it('ignores an unknown ?qr value', () => {
    renderGenerator({ path: '/?qr=fax' })
    expect(typeBox()).toHaveTextContent('Website')
  })
})

describe('regenerating in the signed-in create view', () => {
  const saved = { id: 7, name: 'Flyer', qrType: 'url', qrMode: 'static', data: 'https://example.com/a' }
  const sentTo = (mock: ReturnType<typeof stubFetch>, method: string, url: string) =>
    mock.mock.calls.filter(([u, init]) => u === url && init?.method === method)

  it("updates the code it saved instead of saving another, until 'Start a new code'", async () => {
    const { mock } = renderGenerator({
      signedIn: true,
      props: { variant: 'dashboard' },
      handlers: {
        'POST /api/qrcodes': () => json(saved, 201),
        'PUT /api/qrcodes/7': () => json({ ...saved, data: 'https://example.com/b' }),
      },
    })
    await userEvent.type(field('Website URL'), 'https://example.com/a')
    await userEvent.type(field('Name (optional)'), 'Flyer')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('QR Code saved')).toBeInTheDocument()
    expect(screen.getByTestId('editing-code')).toHaveTextContent('Editing “Flyer”: Generate QR Code updates it.')

    await userEvent.clear(field('Website URL'))
    await userEvent.type(field('Website URL'), 'https://example.com/b')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('QR Code updated')).toBeInTheDocument()
    expect(sentTo(mock, 'POST', '/api/qrcodes')).toHaveLength(1)
    const put = sentTo(mock, 'PUT', '/api/qrcodes/7')
    expect(put).toHaveLength(1)
    expect(Object.fromEntries((put[0][1]?.body as FormData).entries())).toMatchObject({ url: 'https://example.com/b', qrMode: 'static', name: 'Flyer' })

    await userEvent.click(screen.getByRole('button', { name: 'Start a new code' }))
    expect(field('Website URL')).toHaveValue('')
    expect(screen.queryByTestId('editing-code')).not.toBeInTheDocument()
    await userEvent.type(field('Website URL'), 'https://example.com/c')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    await waitFor(() => expect(sentTo(mock, 'POST', '/api/qrcodes')).toHaveLength(2))
    expect(sentTo(mock, 'PUT', '/api/qrcodes/7')).toHaveLength(1)
  })

  it('keeps a dynamic code and its short link: a new destination, then the new style', async () => {
    const dynamic = { ...saved, id: 9, qrMode: 'dynamic', shortCode: 'abc', shortUrl: 'http://x/d/abc', data: 'http://x/d/abc' }
    let created = false
    const { mock } = renderGenerator({
      signedIn: true,
      props: { variant: 'dashboard' },
      handlers: {
        // The code made here takes the last slot; updating it needs none.
        'GET /api/trial-status': () => json({ canCreateDynamicQR: !created, dynamicQRLimit: 12 }),
        'POST /api/dynamic-qrcodes': () => {
          created = true
          return json(dynamic, 201)
        },
        'PUT /api/dynamic-qrcodes/9': () => json(dynamic),
        'PUT /api/dynamic-qrcodes/9/style': () => json(dynamic),
      },
    })
    await userEvent.click(screen.getByRole('radio', { name: 'Dynamic' }))
    await userEvent.type(field('Website URL'), 'https://example.com/menu')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Dynamic QR Code saved')).toBeInTheDocument()
    await waitFor(() => expect(mock.mock.calls.filter(([u]) => u === '/api/trial-status').length).toBeGreaterThan(1))

    await userEvent.clear(field('Website URL'))
    await userEvent.type(field('Website URL'), 'https://example.com/lunch')
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Code' }))
    expect(await screen.findByText('Dynamic QR Code updated')).toBeInTheDocument()
    expect(sentTo(mock, 'POST', '/api/dynamic-qrcodes')).toHaveLength(1)
    expect(JSON.parse(String(sentTo(mock, 'PUT', '/api/dynamic-qrcodes/9')[0][1]?.body))).toEqual({
      destination: 'https://example.com/lunch',
      qrType: 'url',
      qrData: { url: 'https://example.com/lunch' },
    })
    const style = Object.fromEntries((sentTo(mock, 'PUT', '/api/dynamic-qrcodes/9/style')[0][1]?.body as FormData).entries())
    expect(style).toMatchObject({ fgColor: '#000000', errorCorrectionLevel: 'M' })
    expect(style).not.toHaveProperty('destination')
  })
})

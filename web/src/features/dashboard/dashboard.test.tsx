import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { imageVersion } from '@/lib/code-image'
import type { DynamicCode, SavedCode, StaticCode, TrialStatus } from './api/types'
import { dynamicCode, staticCode } from './test-fixtures'

const pausedCode: DynamicCode = { ...dynamicCode, id: 4, name: 'Old flyer', isPaused: true, pausedAt: '2026-11-21T09:00:00Z' }

const trial = (over: Partial<TrialStatus> = {}): TrialStatus => ({
  isActive: false,
  hasExpired: false,
  trialUsed: false,
  daysRemaining: 0,
  subscriptionStatus: null,
  dynamicQRUsed: 1,
  dynamicQRLimit: 12,
  canCreateDynamicQR: true,
  ...over,
})

type Handlers = Parameters<typeof stubFetch>[0]

/** One page of GET /api/codes, the last. */
const page = (items: SavedCode[]) => json({ items, nextCursor: null, total: items.length })

/** The server's list: the active codes (dynamic first, the newer here) or, for status=paused, the paused ones. */
function stubDashboard(handlers: Handlers = {}, lists: { statics?: StaticCode[]; dynamics?: DynamicCode[]; paused?: DynamicCode[] } = {}) {
  return stubFetch({
    'GET /api/user': () => json(alice),
    'GET /api/codes': (_, url) =>
      page(url.searchParams.get('status') === 'paused' ? (lists.paused ?? [pausedCode]) : [...(lists.dynamics ?? [dynamicCode]), ...(lists.statics ?? [staticCode])]),
    'GET /api/trial-status': () => json(trial()),
    ...handlers,
  })
}

const calls = (mock: ReturnType<typeof stubFetch>, method: string, url: string) => mock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method)

/** The requests for pages of the code list. */
const listCalls = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.filter(([u]) => String(u).startsWith('/api/codes?'))

async function card(name: string) {
  const heading = await screen.findByRole('heading', { name })
  const el = heading.closest('[data-testid="qr-card"]')
  if (!(el instanceof HTMLElement)) throw new Error(`no card for ${name}`)
  return el
}

/** A dashboard of others and the static code 'Shop front', deleted through its card and confirmed. */
async function deleteShopFront(others: SavedCode[]) {
  let statics = [staticCode]
  stubDashboard({
    'GET /api/codes': (_, url) => page(url.searchParams.get('status') === 'paused' ? [] : [...others, ...statics]),
    'DELETE /api/qrcodes/7': () => {
      statics = []
      return new Response(null, { status: 204 })
    },
  })
  renderApp('/dashboard')
  await userEvent.click(within(await card('Shop front')).getByRole('button', { name: 'Delete' }))
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
}

describe('dashboard lists', () => {
  it("shows 'Loading your QR codes...' while the lists load", async () => {
    stubDashboard({ 'GET /api/codes': () => new Promise<Response>(() => {}) })
    renderApp('/dashboard')
    expect(await screen.findByText('Loading your QR codes...')).toBeInTheDocument()
  })

  it('shows the empty state with no codes', async () => {
    stubDashboard({}, { statics: [], dynamics: [] })
    renderApp('/dashboard')
    expect(await screen.findByText('No QR codes yet')).toBeInTheDocument()
    expect(screen.getByText('Create your first QR code to get started')).toBeInTheDocument()
  })

  it("shows both kinds in the server's order, with the dynamic badge and scan count", async () => {
    stubDashboard()
    renderApp('/dashboard')
    const list = await screen.findByRole('list', { name: 'QR codes' })
    const names = within(list).getAllByRole('heading').map((h) => h.textContent)
    expect(names).toEqual(['Menu card', 'Shop front'])

    const dyn = await card('Menu card')
    // Each card is a group named after its code, so its buttons, the same on every card, say which code they act on.
    expect(screen.getByRole('group', { name: 'Menu card' })).toBe(dyn)
    expect(within(dyn).getByText('Dynamic')).toBeInTheDocument()
    expect(within(dyn).getByTestId('scan-count')).toHaveTextContent('42')
    expect(within(dyn).getByTestId('scan-count').parentElement).toHaveTextContent('42 scans')
    expect(within(dyn).getByText('Website')).toBeInTheDocument()
    for (const name of ['Download', 'View', 'Edit', 'Pause', 'Delete']) expect(within(dyn).getByRole('button', { name })).toBeInTheDocument()
    expect(dyn.querySelector('img')).toHaveAttribute('src', `/api/dynamic-qrcodes/3/image?format=svg&v=${imageVersion(dynamicCode)}`)

    const stat = await card('Shop front')
    expect(within(stat).queryByText('Dynamic')).not.toBeInTheDocument()
    expect(within(stat).queryByTestId('scan-count')).not.toBeInTheDocument()
    expect(within(stat).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    expect(within(stat).queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument()
    expect(stat.querySelector('img')).toHaveAttribute('src', `/api/qrcodes/7/image?format=svg&v=${imageVersion(staticCode)}`)
  })

  it('pauses a dynamic code and refetches the lists', async () => {
    const mock = stubDashboard({ 'POST /api/dynamic-qrcodes/3/pause': () => json({ ...dynamicCode, isPaused: true }) })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Pause' }))
    await waitFor(() => expect(listCalls(mock)).toHaveLength(2))
    expect(calls(mock, 'POST', '/api/dynamic-qrcodes/3/pause')).toHaveLength(1)
    expect(calls(mock, 'GET', '/api/trial-status')).toHaveLength(2)
  })

  it('hands focus to the card taking the place of one paused away', async () => {
    let dynamics = [dynamicCode]
    stubDashboard({
      'GET /api/codes': (_, url) => page(url.searchParams.get('status') === 'paused' ? [pausedCode] : [...dynamics, staticCode]),
      'POST /api/dynamic-qrcodes/3/pause': () => {
        dynamics = []
        return json({ ...dynamicCode, isPaused: true })
      },
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Pause' }))
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Menu card' })).not.toBeInTheDocument())
    expect(within(await card('Shop front')).getAllByRole('button')[0]).toHaveFocus()
  })

  it("shows the server's refusal of a pause in a toast, and the card stays active", async () => {
    const refusal = 'You are a viewer in Acme Marketing; only an editor or above can do this'
    stubDashboard({ 'POST /api/dynamic-qrcodes/3/pause': () => json({ message: refusal }, 403) })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Pause' }))
    expect(await screen.findByText('Could not pause the QR code')).toBeInTheDocument()
    expect(screen.getByText(refusal)).toBeInTheDocument()
    await waitFor(() => expect(within(screen.getByRole('heading', { name: 'Menu card' }).closest('[data-testid="qr-card"]') as HTMLElement).getByRole('button', { name: 'Pause' })).toBeEnabled())
  })

  it('says the server could not be reached when a resume gets no answer', async () => {
    stubDashboard({ 'POST /api/dynamic-qrcodes/4/resume': () => Promise.reject(new TypeError('Failed to fetch')) })
    renderApp('/dashboard?view=paused')
    await userEvent.click(within(await card('Old flyer')).getByRole('button', { name: 'Resume' }))
    expect(await screen.findByText('Could not resume the QR code')).toBeInTheDocument()
    expect(screen.getByText('Could not reach the server, try again')).toBeInTheDocument()
    expect(await card('Old flyer')).toBeInTheDocument()
  })

  it('opens the preview with the short URL and destination', async () => {
    stubDashboard()
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'View' }))
    const dialog = await screen.findByRole('dialog', { name: 'QR Code Preview' })
    expect(within(dialog).getByText('http://localhost/d/AbC123xy')).toBeInTheDocument()
    expect(within(dialog).getByText('https://menu.example.com')).toBeInTheDocument()
  })
})

describe('workspace requiring two-factor authentication', () => {
  it('shows a panel linking to Account Settings instead of an error', async () => {
    const message = 'This workspace requires two-factor authentication. Set it up in Account Settings to continue.'
    // Every workspace route refuses alike; the account's stay open.
    const refused = () => json({ message, code: 'two_factor_required' }, 403)
    stubDashboard({ 'GET /api/codes': refused, 'GET /api/trial-status': refused, 'GET /api/tags': refused, 'GET /api/folders': refused })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication required' })).toBeInTheDocument()
    expect(screen.getByText(message)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Set up two-factor authentication' })).toHaveAttribute('href', '/account-settings')
    expect(screen.queryByText(/couldn.t load your QR codes/)).not.toBeInTheDocument()
  })

  it('keeps the error for any other refusal', async () => {
    stubDashboard({ 'GET /api/codes': () => json({ message: 'You do not have permission to do this in this workspace' }, 403) })
    renderApp('/dashboard')
    expect(await screen.findByText(/couldn.t load your QR codes/)).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Two-factor authentication required' })).not.toBeInTheDocument()
  })
})

describe('rename', () => {
  async function startRename(name = 'Shop front') {
    await userEvent.click(within(await card(name)).getByRole('button', { name: `Rename ${name}` }))
    return screen.getByRole('textbox', { name: 'QR code name' })
  }

  it('saves a trimmed name on Enter', async () => {
    const mock = stubDashboard({ 'PATCH /api/qrcodes/7': () => json({ ...staticCode, name: 'Front door' }) })
    renderApp('/dashboard')
    const input = await startRename()
    await userEvent.clear(input)
    await userEvent.type(input, '  Front door  {Enter}')
    await waitFor(() => expect(calls(mock, 'PATCH', '/api/qrcodes/7')).toHaveLength(1))
    expect(JSON.parse(String(calls(mock, 'PATCH', '/api/qrcodes/7')[0][1]?.body))).toEqual({ name: 'Front door' })
    expect(screen.queryByRole('textbox', { name: 'QR code name' })).not.toBeInTheDocument()
  })

  it('saves with the tick, on the dynamic route for dynamic codes', async () => {
    const mock = stubDashboard({ 'PATCH /api/dynamic-qrcodes/3': () => json(dynamicCode) })
    renderApp('/dashboard')
    const input = await startRename('Menu card')
    await userEvent.type(input, ' 2')
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }))
    await waitFor(() => expect(calls(mock, 'PATCH', '/api/dynamic-qrcodes/3')).toHaveLength(1))
    expect(JSON.parse(String(calls(mock, 'PATCH', '/api/dynamic-qrcodes/3')[0][1]?.body))).toEqual({ name: 'Menu card 2' })
  })

  it.each([
    ['Escape', async (input: HTMLElement) => userEvent.type(input, 'Other{Escape}')],
    ['the cross', async (input: HTMLElement) => {
      await userEvent.type(input, 'Other')
      await userEvent.click(screen.getByRole('button', { name: 'Cancel rename' }))
    }],
    ['a blank name', async (input: HTMLElement) => {
      await userEvent.clear(input)
      await userEvent.type(input, '   {Enter}')
    }],
    ['an unchanged name', async (input: HTMLElement) => userEvent.type(input, ' {Enter}')],
  ])('just closes on %s', async (_, act) => {
    const mock = stubDashboard()
    renderApp('/dashboard')
    await act(await startRename())
    expect(screen.queryByRole('textbox', { name: 'QR code name' })).not.toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Shop front' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Rename Shop front' })).toHaveFocus()
    expect(mock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false)
  })

  it("toasts the server's refusal of a name, which has no field to show it, and keeps the old name", async () => {
    const refusal = 'Name must not contain control or text direction characters'
    stubDashboard({ 'PATCH /api/qrcodes/7': () => json({ errors: { name: refusal } }, 400) })
    renderApp('/dashboard')
    const input = await startRename()
    await userEvent.type(input, '\u202Efdp.exe{Enter}')
    expect(await screen.findByText('Could not rename the QR code')).toBeInTheDocument()
    expect(screen.getByText(refusal)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Shop front' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Rename Shop front' })).toHaveFocus()
  })
})

describe('delete', () => {
  it('closes the confirmation even when the call fails, says why in a toast and keeps the card', async () => {
    const mock = stubDashboard({ 'DELETE /api/qrcodes/7': () => json({ message: 'Something broke on our side' }, 500) })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Shop front')).getByRole('button', { name: 'Delete' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete QR Code' })
    expect(dialog).toHaveTextContent('This action cannot be undone')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls(mock, 'DELETE', '/api/qrcodes/7')).toHaveLength(1)
    expect(await screen.findByText('Could not delete the QR code')).toBeInTheDocument()
    expect(screen.getByText('Something broke on our side')).toBeInTheDocument()
    expect(await card('Shop front')).toBeInTheDocument()
  })

  it('removes the card after a successful delete', async () => {
    await deleteShopFront([])
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Shop front' })).not.toBeInTheDocument())
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('focus after a delete', () => {
  it('goes to the card now in the place of the deleted one (the last, here, the one before)', async () => {
    await deleteShopFront([dynamicCode])
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Shop front' })).not.toBeInTheDocument())
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'QR codes' })).getAllByRole('button')[0]).toHaveFocus())
    expect(document.activeElement?.closest('[data-testid="qr-card"]')).toHaveTextContent('Menu card')
  })

  it("goes to the empty state's Create QR Code when the last card is deleted", async () => {
    await deleteShopFront([])
    const empty = (await screen.findByRole('heading', { name: 'No QR codes yet' })).parentElement
    if (!empty) throw new Error('no empty state')
    await waitFor(() => expect(within(empty).getByRole('link', { name: 'Create QR Code' })).toHaveFocus())
  })
})

describe('edit destination', () => {
  async function openEdit() {
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Dynamic QR Code' })
    return { dialog, input: within(dialog).getByLabelText('Destination URL') }
  }

  it('validates the URL and says the image stays the same', async () => {
    const mock = stubDashboard()
    renderApp('/dashboard')
    const { dialog, input } = await openEdit()
    expect(dialog).toHaveTextContent('The QR code image stays the same')
    expect(input).toHaveValue('https://menu.example.com')
    await userEvent.clear(input)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    expect(await within(dialog).findByText('URL is required')).toBeInTheDocument()
    for (const bad of ['not a url', 'javascript:alert(1)']) {
      await userEvent.clear(input)
      await userEvent.type(input, bad)
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
      expect(await within(dialog).findByText('Please enter a valid URL')).toBeInTheDocument()
    }
    expect(mock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false)
  })

  it('PUTs the destination and closes', async () => {
    const mock = stubDashboard({ 'PUT /api/dynamic-qrcodes/3': () => json({ ...dynamicCode, destination: 'https://new.example.com/' }) })
    renderApp('/dashboard')
    const { dialog, input } = await openEdit()
    await userEvent.clear(input)
    await userEvent.type(input, 'https://new.example.com/')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3')[0][1]?.body))).toEqual({ destination: 'https://new.example.com/' })
  })

  it("shows the server's refusal under the field", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubDashboard({ 'PUT /api/dynamic-qrcodes/3': () => json({ message: 'Please enter a valid URL', errors: { destination: 'Please enter a valid URL' } }, 400) })
    renderApp('/dashboard')
    const { dialog, input } = await openEdit()
    await userEvent.clear(input)
    await userEvent.type(input, 'https://user:pw@example.com/')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    expect(await within(dialog).findByText('Please enter a valid URL')).toBeInTheDocument()
    expect(screen.queryByText('Could not edit the QR code')).not.toBeInTheDocument()
  })

  it('toasts a refusal of a field the dialog does not show', async () => {
    stubDashboard({ 'PUT /api/dynamic-qrcodes/3': () => json({ errors: { name: 'Name must not contain control or text direction characters' } }, 400) })
    renderApp('/dashboard')
    const { dialog } = await openEdit()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Could not edit the QR code')).toBeInTheDocument()
    expect(screen.getByText('Name must not contain control or text direction characters')).toBeInTheDocument()
  })
})

describe('short code', () => {
  async function openShortCode() {
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Dynamic QR Code' })
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Domain & short code' }))
    return dialog
  }

  it('changes an unscanned code to a chosen short code, shown available as typed', async () => {
    const mock = stubDashboard(
      {
        'GET /api/short-codes/availability': (_, url) => json({ shortCode: url.searchParams.get('shortCode'), available: true }),
        'PATCH /api/dynamic-qrcodes/3': () => json({ ...dynamicCode, scanCount: 0, shortCode: 'spring-menu' }),
      },
      { dynamics: [{ ...dynamicCode, scanCount: 0 }] },
    )
    renderApp('/dashboard')
    const dialog = await openShortCode()
    const input = await within(dialog).findByLabelText('New short code')
    await userEvent.type(input, 'sp')
    expect(within(dialog).getByTestId('short-code-status')).toHaveTextContent('Use 3 to 64 letters, digits, - or _')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    await userEvent.type(input, 'ring-menu')
    expect(await within(dialog).findByText('Available')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Short Code' }))
    await waitFor(() => expect(calls(mock, 'PATCH', '/api/dynamic-qrcodes/3')).toHaveLength(1))
    expect(JSON.parse(String(calls(mock, 'PATCH', '/api/dynamic-qrcodes/3')[0][1]?.body))).toEqual({ shortCode: 'spring-menu' })
    expect(await screen.findByText('Short code changed')).toBeInTheDocument()
  })

  it("shows the server's refusal beside the field", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubDashboard(
      {
        'GET /api/short-codes/availability': (_, url) => json({ shortCode: url.searchParams.get('shortCode'), available: true }),
        'PATCH /api/dynamic-qrcodes/3': () => json({ message: 'This short code is taken', errors: { shortCode: 'This short code is taken' }, code: 'taken' }, 409),
      },
      { dynamics: [{ ...dynamicCode, scanCount: 0 }] },
    )
    renderApp('/dashboard')
    const dialog = await openShortCode()
    await userEvent.type(await within(dialog).findByLabelText('New short code'), 'menu')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Short Code' }))
    expect(await within(dialog).findByText('This short code is taken')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('New short code')).toHaveAttribute('aria-invalid', 'true')
  })

  it('keeps a scanned code\'s short code and says why', async () => {
    stubDashboard({}, { dynamics: [{ ...dynamicCode, scanCount: 4 }] })
    renderApp('/dashboard')
    const dialog = await openShortCode()
    expect(within(dialog).queryByLabelText('New short code')).not.toBeInTheDocument()
    expect(dialog).toHaveTextContent(`The short code ${dynamicCode.shortCode} stays as it is: the code has been scanned`)
  })
})

describe('smart routing', () => {
  async function openTab(tab: string) {
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Dynamic QR Code' })
    await userEvent.click(within(dialog).getByRole('tab', { name: tab }))
    return dialog
  }

  it('adds the UTM parameters to the destination', async () => {
    stubDashboard()
    renderApp('/dashboard')
    const dialog = await openTab('Destination')
    await userEvent.type(within(dialog).getByLabelText('utm_source'), 'flyer')
    await userEvent.type(within(dialog).getByLabelText('utm_medium'), 'print qr')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add UTM to URL' }))
    expect(within(dialog).getByLabelText('Destination URL')).toHaveValue('https://menu.example.com/?utm_source=flyer&utm_medium=print+qr')
  })

  it('builds rules, reorders them and PUTs only the conditions set', async () => {
    const mock = stubDashboard({ 'PUT /api/dynamic-qrcodes/3/routing': () => json(dynamicCode) })
    renderApp('/dashboard')
    const dialog = await openTab('Rules')
    const add = within(dialog).getByRole('button', { name: 'Add rule' })
    await userEvent.click(add)
    await userEvent.click(add)
    await userEvent.click(within(within(dialog).getByRole('group', { name: 'Rule 1 devices' })).getByLabelText('Android'))
    await userEvent.type(within(dialog).getByLabelText('Rule 1 URL'), 'https://example.com/android')
    // The countries are a searchable chip list: typing filters by name, Enter or a click adds.
    const countries = within(dialog).getAllByRole('combobox', { name: 'Countries' })[1]
    await userEvent.type(countries, 'germ{Enter}')
    await userEvent.type(countries, 'Aust')
    expect(within(within(dialog).getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Australia', 'Austria'])
    await userEvent.click(within(dialog).getByRole('option', { name: 'Austria' }))
    expect(within(within(dialog).getByRole('list', { name: 'Chosen countries' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Austria', 'Germany'])
    await userEvent.type(within(dialog).getByLabelText('Rule 2 URL'), 'https://example.com/dach')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move rule 2 up' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Routing' }))
    await waitFor(() => expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')).toHaveLength(1))
    expect(JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')[0][1]?.body))).toEqual({
      rules: [
        { when: { country: ['DE', 'AT'] }, destination: 'https://example.com/dach' },
        { when: { os: ['android'] }, destination: 'https://example.com/android' },
      ],
      split: [],
      startsAt: null,
      expiresAt: null,
      scanLimit: null,
      afterEnd: null,
    })
  })

  it('offers the regions and cities scans came from as chips, and takes a name typed in', async () => {
    const mock = stubDashboard({
      'GET /api/analytics': () =>
        json({
          citiesEnabled: true,
          regions: [{ country: 'DE', region: 'Bavaria', scans: 9 }],
          cities: [
            { country: 'DE', region: 'Bavaria', city: 'Munich', scans: 6 },
            { country: 'DE', region: 'Bavaria', city: 'Nuremberg', scans: 3 },
          ],
        }),
      'PUT /api/dynamic-qrcodes/3/routing': () => json(dynamicCode),
    })
    renderApp('/dashboard')
    const dialog = await openTab('Rules')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }))
    expect(await within(dialog).findByText(/offer the regions and cities your scans have come from/)).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Rule 1 URL'), 'https://example.com/bavaria')
    const cities = within(dialog).getByRole('combobox', { name: 'Cities' })
    await userEvent.type(cities, 'mun')
    expect(within(within(dialog).getByRole('listbox', { name: 'Cities' })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Add “mun”',
      'Munich, Bavaria, DE',
    ])
    await userEvent.click(within(dialog).getByRole('option', { name: 'Munich, Bavaria, DE' }))
    await userEvent.type(cities, 'Graz{Enter}')
    // A name already offered is not offered again as typed.
    await userEvent.type(cities, 'nuremberg')
    expect(within(within(dialog).getByRole('listbox', { name: 'Cities' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Nuremberg, Bavaria, DE'])
    await userEvent.clear(cities)
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Regions' }), 'DE-BY{Enter}')
    expect(within(within(dialog).getByRole('list', { name: 'Chosen cities' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Graz',
      'Munich, Bavaria, DE',
    ])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Routing' }))
    await waitFor(() => expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')).toHaveLength(1))
    const sent = JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')[0][1]?.body)) as { rules: unknown[] }
    expect(sent.rules).toEqual([{ when: { region: ['DE-BY'], city: ['Munich', 'Graz'] }, destination: 'https://example.com/bavaria' }])
  })

  it("shows each of the server's refusals beside its field, turns to its tab and focuses the first", async () => {
    stubDashboard({
      'PUT /api/dynamic-qrcodes/3/routing': () =>
        json(
          {
            message: 'Rule 1: destination is not a valid URL',
            errors: {
              'rules.0.destination': 'Rule 1: destination is not a valid URL',
              split: "The variants' weights must add up to 100 (now 90)",
              expiresAt: 'The end must be after the start',
            },
          },
          400,
        ),
    })
    renderApp('/dashboard')
    const dialog = await openTab('Split')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add variant' }))
    await userEvent.type(within(dialog).getByLabelText('Variant A URL'), 'https://example.com/a')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Routing' }))
    // The first tab with a refusal is Rules: its field is marked, described and focused.
    await waitFor(() => expect(within(dialog).getByRole('tab', { name: 'Rules, has errors' })).toHaveAttribute('aria-selected', 'true'))
    // Every tab with a refusal says so; the others do not.
    expect(within(dialog).getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Destination',
      'Rules, has errors',
      'Split, has errors',
      'Schedule & limit, has errors',
      'Domain & short code',
    ])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }))
    const url = within(dialog).getByLabelText('Rule 1 URL')
    expect(url).toHaveAttribute('aria-invalid', 'true')
    expect(url).toHaveAccessibleDescription('Rule 1: destination is not a valid URL')
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Schedule & limit, has errors' }))
    expect(within(dialog).getByLabelText('Ends at')).toHaveAccessibleDescription('The end must be after the start')
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Split, has errors' }))
    expect(within(dialog).getByLabelText('Weight')).toHaveAccessibleDescription("The variants' weights must add up to 100 (now 90)")
    // No field paths in sight.
    expect(dialog).not.toHaveTextContent('rules.0')
  })

  it('sends a rule or a variant to a hosted page, and shows a refusal beside it', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView')
    const hosted = (id: number, title: string, slug: string) => ({ id, type: 'links', title, slug, url: `https://qr.example/p/${slug}` })
    const mock = stubDashboard({
      'GET /api/pages': () => json([hosted(4, 'Lunch menu', 'lunch'), hosted(9, 'Team card', 'team')]),
      'PUT /api/dynamic-qrcodes/3/routing': () =>
        json({ message: 'Rule 1: no page with this id in this workspace', errors: { 'rules.0.pageId': 'Rule 1: no page with this id in this workspace' } }, 400),
    })
    renderApp('/dashboard')
    const dialog = await openTab('Rules')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }))
    await userEvent.click(within(within(dialog).getByRole('group', { name: 'Rule 1 devices' })).getByLabelText('iOS'))
    await userEvent.selectOptions(within(dialog).getByLabelText('Rule 1 opens'), 'A hosted page')
    const choice = within(dialog).getByLabelText('Rule 1 page')
    await waitFor(() => expect(within(choice).getAllByRole('option').map((o) => o.textContent)).toEqual(['Lunch menu (/p/lunch)', 'Team card (/p/team)']))
    await userEvent.selectOptions(choice, 'Team card (/p/team)')
    expect(within(dialog).queryByLabelText('Rule 1 URL')).toBeNull()
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Split' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add variant' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add variant' }))
    await userEvent.selectOptions(within(dialog).getByLabelText('Variant A opens'), 'A hosted page')
    await userEvent.type(within(dialog).getByLabelText('Variant B URL'), 'https://example.com/b')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Routing' }))
    await waitFor(() => expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')).toHaveLength(1))
    const sent = JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/routing')[0][1]?.body)) as Record<string, unknown>
    expect(sent.rules).toEqual([{ when: { os: ['ios'] }, pageId: 9 }])
    expect(sent.split).toEqual([
      { pageId: 4, weight: 0 },
      { destination: 'https://example.com/b', weight: 0 },
    ])
    await waitFor(() => expect(within(dialog).getByRole('tab', { name: 'Rules, has errors' })).toHaveAttribute('aria-selected', 'true'))
    expect(within(dialog).getByRole('tab', { name: 'Split' })).toBeInTheDocument()
    const page = within(dialog).getByLabelText('Rule 1 page')
    expect(page).toHaveAttribute('aria-invalid', 'true')
    expect(page).toHaveAccessibleDescription('Rule 1: no page with this id in this workspace')
    // Focused and centred in the panel, clear of its sticky footer.
    await waitFor(() => expect(page).toHaveFocus())
    expect(scrolled.mock.contexts.at(-1)).toBe(page)
    expect(scrolled).toHaveBeenLastCalledWith({ block: 'center' })
  })

  it('warns that a rule with no conditions takes every scan', async () => {
    stubDashboard()
    renderApp('/dashboard')
    const dialog = await openTab('Rules')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }))
    expect(within(dialog).getByText(/This rule has no conditions, so it takes every scan/)).toBeInTheDocument()
    await userEvent.click(within(within(dialog).getByRole('group', { name: 'Rule 1 devices' })).getByLabelText('iOS'))
    expect(within(dialog).queryByText(/This rule has no conditions/)).not.toBeInTheDocument()
  })

  it("toasts a refusal that is not about a field, in the server's words", async () => {
    stubDashboard({ 'PUT /api/dynamic-qrcodes/3/routing': () => json({ message: 'You are a viewer in Acme; only an editor or above can do this' }, 403) })
    renderApp('/dashboard')
    const dialog = await openTab('Schedule & limit')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Routing' }))
    expect(await screen.findByText('Could not save routing')).toBeInTheDocument()
    expect(screen.getByText('You are a viewer in Acme; only an editor or above can do this')).toBeInTheDocument()
  })

  it('shows the routing badges on the card', async () => {
    const routed: DynamicCode = {
      ...dynamicCode,
      routing: {
        rules: [{ when: { os: ['ios'] }, destination: 'https://example.com/ios' }],
        split: [],
        startsAt: null,
        expiresAt: null,
        scanLimit: 10,
        afterEnd: null,
      },
      limitScans: 7,
    }
    stubDashboard({}, { dynamics: [routed] })
    renderApp('/dashboard')
    const badges = within(await card('Menu card')).getAllByTestId('routing-badge')
    expect(badges.map((b) => b.textContent)).toEqual(['Rules', 'Ends in 3 scans'])
  })
})

describe('alerts', () => {
  const down: DynamicCode = {
    ...dynamicCode,
    health: { status: 'down', reason: 'HTTP 404', url: 'https://menu.example.com', since: '2026-11-21T10:30:00Z', checkedAt: '2026-11-21T12:30:00Z' },
  }

  it('shows "Destination unreachable" with the reason and time on a down code only', async () => {
    stubDashboard({}, { dynamics: [down, { ...dynamicCode, id: 9, name: 'Healthy' }] })
    renderApp('/dashboard')
    const el = await card('Menu card')
    expect(within(el).getByTestId('health-badge')).toHaveTextContent('Destination unreachable')
    const reason = within(el).getByTestId('health-reason')
    expect(reason).toHaveTextContent(/^HTTP 404 since /)
    expect(reason.querySelector('time')).toHaveAttribute('dateTime', '2026-11-21T10:30:00Z')
    const healthy = await card('Healthy')
    expect(within(healthy).queryByTestId('health-badge')).not.toBeInTheDocument()
    expect(within(healthy).queryByTestId('health-reason')).not.toBeInTheDocument()
  })

  it('names the failing destination when it is not the default one', async () => {
    stubDashboard({}, { dynamics: [{ ...down, health: { ...down.health, url: 'https://example.com/ios' } }] })
    renderApp('/dashboard')
    expect(within(await card('Menu card')).getByTestId('health-reason')).toHaveTextContent('https://example.com/ios')
  })

  it('mutes and unmutes with the bell button', async () => {
    let muted = false
    const mock = stubDashboard({
      'GET /api/codes': () => page([{ ...dynamicCode, alertsMuted: muted }]),
      'PUT /api/dynamic-qrcodes/3/alerts': (init) => {
        muted = (JSON.parse(String(init?.body)) as { muted: boolean }).muted
        return json({ ...dynamicCode, alertsMuted: muted })
      },
    })
    renderApp('/dashboard')
    const bell = within(await card('Menu card')).getByRole('button', { name: 'Mute alerts' })
    expect(bell).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(bell)
    await waitFor(() => expect(within(screen.getByTestId('qr-card')).getByRole('button', { name: 'Mute alerts' })).toHaveAttribute('aria-pressed', 'true'))
    expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/alerts').map(([, init]) => init?.body)).toEqual([JSON.stringify({ muted: true })])
    await userEvent.click(within(screen.getByTestId('qr-card')).getByRole('button', { name: 'Mute alerts' }))
    await waitFor(() => expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/alerts')).toHaveLength(2))
    expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/alerts')[1][1]?.body).toBe(JSON.stringify({ muted: false }))
  })
})

describe('password', () => {
  async function openPassword(name = 'Menu card') {
    await userEvent.click(within(await card(name)).getByRole('button', { name: 'Password' }))
    return screen.findByRole('dialog', { name: 'Password' })
  }

  it('validates, then PUTs the password and shows the code protected', async () => {
    let protectedNow = false
    const mock = stubDashboard({
      'GET /api/codes': () => page([{ ...dynamicCode, isProtected: protectedNow }]),
      'PUT /api/dynamic-qrcodes/3/password': () => {
        protectedNow = true
        return json({ ...dynamicCode, isProtected: true })
      },
    })
    renderApp('/dashboard')
    const dialog = await openPassword()
    expect(within(dialog).queryByRole('button', { name: 'Remove Password' })).not.toBeInTheDocument()
    const input = within(dialog).getByLabelText('Password')
    await userEvent.type(input, 'short')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Password' }))
    expect(await within(dialog).findByText('Password must be at least 6 characters')).toBeInTheDocument()
    await userEvent.clear(input)
    await userEvent.type(input, 'é'.repeat(37))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Password' }))
    expect(await within(dialog).findByText('Password must be at most 72 bytes')).toBeInTheDocument()
    expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/password')).toHaveLength(0)

    await userEvent.clear(input)
    await userEvent.type(input, 'open sesame')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Password' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/password')[0][1]?.body))).toEqual({ password: 'open sesame' })
    expect(await screen.findByText('Password set')).toBeInTheDocument()
    expect(await within(await card('Menu card')).findByText('Protected')).toBeInTheDocument()
  })

  it('removes the password of a protected code', async () => {
    const mock = stubDashboard(
      { 'PUT /api/dynamic-qrcodes/3/password': () => json({ ...dynamicCode, isProtected: false }) },
      { dynamics: [{ ...dynamicCode, isProtected: true }] },
    )
    renderApp('/dashboard')
    const dialog = await openPassword()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Password' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(JSON.parse(String(calls(mock, 'PUT', '/api/dynamic-qrcodes/3/password')[0][1]?.body))).toEqual({ password: '' })
    expect(await screen.findByText('Password removed')).toBeInTheDocument()
  })

  it("shows the server's refusal under the field", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubDashboard({ 'PUT /api/dynamic-qrcodes/3/password': () => json({ message: 'Password must be at most 72 bytes', errors: { password: 'Password must be at most 72 bytes' } }, 400) })
    renderApp('/dashboard')
    const dialog = await openPassword()
    await userEvent.type(within(dialog).getByLabelText('Password'), 'long enough')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Password' }))
    expect(await within(dialog).findByText('Password must be at most 72 bytes')).toBeInTheDocument()
  })
})

describe('download', () => {
  /** Opens a card's Download dialog. */
  async function openDownload(name = 'Shop front') {
    await userEvent.click(within(await card(name)).getByRole('button', { name: 'Download' }))
    return screen.findByRole('dialog', { name: 'Download' })
  }
  function captureSaves() {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:qr'), revokeObjectURL: vi.fn() }))
    const clicked: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    })
    return clicked
  }

  it('saves the file named after the code from the server with the default options and toasts', async () => {
    const mock = stubDashboard({ 'GET /api/qrcodes/7/image': () => new Response('png', { status: 200 }) })
    const clicked = captureSaves()
    renderApp('/dashboard')
    const dialog = await openDownload()
    expect(within(dialog).getByRole('radio', { name: /PNG/ })).toBeChecked()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download PNG' }))
    expect(await screen.findByText('QR Code Downloaded')).toBeInTheDocument()
    expect(clicked).toEqual(['Shop-front.png'])
    expect(calls(mock, 'GET', '/api/qrcodes/7/image?format=png&download=1')).toHaveLength(1)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('asks for a 50 mm PNG at 600 dpi with the preflight verdict, then a CMYK EPS of that size', async () => {
    const mock = stubDashboard({
      'GET /api/dynamic-qrcodes/3/image': () => new Response('file', { status: 200 }),
      'GET /api/dynamic-qrcodes/3/preflight': (_, url) =>
        json({
          ok: url.searchParams.get('distanceCm') !== '500',
          modules: 33,
          moduleMm: 1.52,
          minModuleMm: 0.4,
          maxDistanceCm: 50,
          minSizeMm: 500,
          warnings: url.searchParams.get('distanceCm') === '500' ? ['At 50 mm this code scans from up to 50 cm; to be read at 5 m, print it at least 500 mm wide'] : [],
        }),
    })
    const clicked = captureSaves()
    renderApp('/dashboard')
    const dialog = await openDownload('Menu card')
    await userEvent.selectOptions(within(dialog).getByLabelText('Print size'), '50')
    expect(await within(dialog).findByText('At 50 mm this code scans from up to 50 cm (modules of 1.52 mm).')).toBeInTheDocument()
    await userEvent.selectOptions(within(dialog).getByLabelText('Read from'), '500')
    expect(await within(dialog).findByText('At 50 mm this code scans from up to 50 cm; to be read at 5 m, print it at least 500 mm wide')).toBeInTheDocument()
    expect(calls(mock, 'GET', '/api/dynamic-qrcodes/3/preflight?sizeMm=50&distanceCm=500')).toHaveLength(1)
    // A print size sets the PNG's pixels: the PNG size is not asked then.
    expect(within(dialog).getByLabelText('PNG size')).toBeDisabled()
    await userEvent.selectOptions(within(dialog).getByLabelText('PNG resolution'), '600')
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Transparent background' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download PNG' }))
    expect(await screen.findByText('QR Code Downloaded')).toBeInTheDocument()
    expect(calls(mock, 'GET', '/api/dynamic-qrcodes/3/image?format=png&download=1&sizeMm=50&dpi=600&transparent=1')).toHaveLength(1)

    const again = await openDownload('Menu card')
    await userEvent.click(within(again).getByRole('radio', { name: /EPS/ }))
    await userEvent.selectOptions(within(again).getByLabelText('Print size'), '100')
    await userEvent.click(within(again).getByRole('switch', { name: 'CMYK for print (PDF, EPS)' }))
    await userEvent.click(within(again).getByRole('button', { name: 'Download EPS' }))
    await waitFor(() => expect(calls(mock, 'GET', '/api/dynamic-qrcodes/3/image?format=eps&download=1&sizeMm=100&colorSpace=cmyk')).toHaveLength(1))
    expect(clicked).toEqual(['Menu-card.png', 'Menu-card.eps'])
  })

  it('asks for a PNG size, and says a framed code\'s real file size', async () => {
    const mock = stubDashboard({ 'GET /api/qrcodes/7/image': () => new Response('png', { status: 200 }) }, { statics: [{ ...staticCode, enableFrame: true }] })
    captureSaves()
    renderApp('/dashboard')
    const dialog = await openDownload()
    expect(within(dialog).getByRole('option', { name: '50 mm code, file 60 × 65 mm' })).toBeInTheDocument()
    await userEvent.selectOptions(within(dialog).getByLabelText('PNG size'), '1024 px code, file 1229 × 1331 px')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download PNG' }))
    await waitFor(() => expect(calls(mock, 'GET', '/api/qrcodes/7/image?format=png&download=1&pixels=1024')).toHaveLength(1))
  })

  it('moves through the formats with the arrow keys from one Tab stop', async () => {
    stubDashboard()
    renderApp('/dashboard')
    const dialog = await openDownload()
    const png = within(dialog).getByRole('radio', { name: /PNG/ })
    png.focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(within(dialog).getByRole('radio', { name: /SVG/ })).toBeChecked()
    expect(within(dialog).getByRole('button', { name: 'Download SVG' })).toBeInTheDocument()
  })

  it("toasts 'Download Failed' when the server refuses and keeps the dialog", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubDashboard({ 'GET /api/qrcodes/7/image': () => json({ message: 'nope' }, 500) })
    renderApp('/dashboard')
    const dialog = await openDownload()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download PNG' }))
    expect(await screen.findByText('Download Failed')).toBeInTheDocument()
    expect(screen.getByText('There was a problem saving your QR code image.')).toBeInTheDocument()
    expect(dialog).toBeInTheDocument()
  })
})

describe('counts', () => {
  it("says '1 scan' and '1 QR code' in the singular", async () => {
    stubDashboard({}, { statics: [], dynamics: [{ ...dynamicCode, scanCount: 1 }] })
    renderApp('/dashboard')
    const dyn = await card('Menu card')
    expect(within(dyn).getByTestId('scan-count').parentElement).toHaveTextContent(/^1 scan$/)
    await userEvent.click(within(dyn).getByRole('checkbox', { name: 'Select Menu card' }))
    await userEvent.click(within(screen.getByRole('toolbar', { name: 'Selected codes' })).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByRole('dialog', { name: 'Delete 1 QR code' })).toBeInTheDocument()
  })
})

describe('paused view', () => {
  it("lists paused codes with Resume, View and Delete, a '{n} paused' badge and Back to Active", async () => {
    const mock = stubDashboard({ 'POST /api/dynamic-qrcodes/4/resume': () => json({ ...pausedCode, isPaused: false }) })
    const { router } = renderApp('/dashboard')
    await userEvent.click(await screen.findByRole('link', { name: 'Paused Codes' }))
    expect(await screen.findByText('1 paused')).toHaveClass('whitespace-nowrap')
    const paused = await card('Old flyer')
    // Badges keep to one line however narrow the card.
    for (const badge of [within(paused).getByText('Paused'), within(paused).getByText('Dynamic'), within(paused).getByTestId('scan-count').parentElement])
      expect(badge).toHaveClass('whitespace-nowrap')
    const actions = within(paused)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label') ?? b.textContent)
    expect(actions).toEqual(['Preview Old flyer', 'Rename Old flyer', 'Resume', 'View', 'Delete'])
    await userEvent.click(within(paused).getByRole('button', { name: 'Resume' }))
    await waitFor(() => expect(calls(mock, 'POST', '/api/dynamic-qrcodes/4/resume')).toHaveLength(1))

    await userEvent.click(screen.getByRole('button', { name: 'Back to Active' }))
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(await screen.findByRole('heading', { name: 'Active Codes' })).toBeInTheDocument()
  })

  it("shows 'No paused dynamic QR codes' when none are paused", async () => {
    stubDashboard({}, { paused: [] })
    renderApp('/dashboard?view=paused')
    expect(await screen.findByText('No paused dynamic QR codes')).toBeInTheDocument()
    expect(screen.getByText('0 paused')).toBeInTheDocument()
  })
})

describe('trial banners and the limit', () => {
  it('shows the days remaining during a trial', async () => {
    stubDashboard({ 'GET /api/trial-status': () => json(trial({ isActive: true, daysRemaining: 2 })) })
    renderApp('/dashboard')
    expect(await screen.findByText(/Free Trial Active: 2 days remaining/)).toBeInTheDocument()
    expect(screen.queryByText('Your Free Trial Has Expired')).not.toBeInTheDocument()
  })

  it('shows the expired banner after the trial', async () => {
    stubDashboard({ 'GET /api/trial-status': () => json(trial({ hasExpired: true })) })
    renderApp('/dashboard')
    expect(await screen.findByText('Your Free Trial Has Expired')).toBeInTheDocument()
  })

  it('lists what the running trial gives: what Premium adds', async () => {
    stubDashboard({ 'GET /api/trial-status': () => json(trial({ isActive: true, daysRemaining: 2, subscriptionStatus: 'free' })) })
    renderApp('/dashboard')
    const banner = (await screen.findByText(/Free Trial Active: 2 days remaining/)).closest('[role="status"]')
    expect(banner).toHaveTextContent('Until it ends your workspace has what Premium adds:')
    expect(banner).toHaveTextContent('Unlimited dynamic QR codes (free accounts keep up to 12)')
    expect(banner).toHaveTextContent('new dynamic codes then stop at 12')
  })

  it('offers the trial to the owner of a workspace that never had one nor a subscription, and starts it', async () => {
    let started = false
    const mock = stubDashboard({
      'GET /api/trial-status': () => json(trial(started ? { isActive: true, daysRemaining: 3, subscriptionStatus: 'free' } : { subscriptionStatus: 'free' })),
      'POST /api/activate-trial': () => {
        started = true
        return json({ message: 'Free trial activated', user: { ...alice, trialActivated: true } })
      },
    })
    renderApp('/dashboard')
    const offer = (await screen.findByRole('heading', { name: 'Try Premium free for 3 days' })).closest('section')
    expect(offer).toHaveTextContent('Unlimited dynamic QR codes (free accounts keep up to 12)')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText(/Free Trial Active: 3 days remaining/)).toBeInTheDocument()
    const [, init] = calls(mock, 'POST', '/api/activate-trial')[0]
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'alice@example.com' })
    expect(screen.queryByRole('button', { name: 'Start Free Trial' })).not.toBeInTheDocument()
  })

  it.each([
    ['a member who is not an owner', { subscriptionStatus: 'free' }, 'editor'],
    ['a workspace whose subscription ended', { subscriptionStatus: 'canceled' }, 'owner'],
    ['a workspace whose trial ended', { subscriptionStatus: 'free', hasExpired: true }, 'owner'],
    ['an account that used its trial in another workspace', { subscriptionStatus: 'free', trialUsed: true }, 'owner'],
  ] as const)('offers no trial to %s', async (_, status, role) => {
    stubDashboard({
      'GET /api/user': () => json({ ...alice, workspace: { ...alice.workspace, role } }),
      // At the limit, so the alert shows once the status is in.
      'GET /api/trial-status': () => json(trial({ ...status, dynamicQRUsed: 12, canCreateDynamicQR: false })),
    })
    renderApp('/dashboard')
    expect(await screen.findByRole('alert')).toHaveTextContent('Dynamic QR Limit Reached')
    expect(screen.queryByText(/Try Premium/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Start Free Trial' })).not.toBeInTheDocument()
  })

  it('shows no trial banner to subscribers', async () => {
    stubDashboard({ 'GET /api/trial-status': () => json(trial({ subscriptionStatus: 'active', isActive: true, daysRemaining: 2 })) })
    renderApp('/dashboard')
    await card('Shop front')
    await waitFor(() => expect(screen.queryByText(/Free Trial/)).not.toBeInTheDocument())
    expect(screen.queryByText(/Trial Has Expired/)).not.toBeInTheDocument()
  })

  it('alerts at the dynamic limit with a link to /subscribe, on the list and the create view', async () => {
    stubDashboard({ 'GET /api/trial-status': () => json(trial({ hasExpired: true, dynamicQRUsed: 12, canCreateDynamicQR: false })) })
    const { router } = renderApp('/dashboard')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Dynamic QR Limit Reached: You've used 12 of 12 dynamic QR codes")
    expect(within(alert).getByRole('link')).toHaveAttribute('href', '/subscribe')
    await router.navigate('/dashboard?create=true')
    expect(await screen.findByRole('alert')).toHaveTextContent("You've used 12 of 12 dynamic QR codes")
  })

  it('refetches the trial status every 5 minutes', async () => {
    const { TRIAL_STATUS_INTERVAL, trialStatusQueryOptions } = await import('./api/trial-status')
    expect(TRIAL_STATUS_INTERVAL).toBe(300_000)
    const options = trialStatusQueryOptions(true)
    expect(options.refetchInterval).toBe(300_000)
    expect(options.refetchOnWindowFocus).toBe(false)
    expect(trialStatusQueryOptions(false).enabled).toBe(false)
  })
})

describe('menu and create view', () => {
  it("titles the create view and keeps the 'Paused Codes Coming Soon' dialog on its menu", async () => {
    stubDashboard()
    const { router } = renderApp('/dashboard')
    const menu = await screen.findByRole('navigation', { name: 'Dashboard' })
    await userEvent.click(within(menu).getByRole('link', { name: 'Create QR Code' }))
    await waitFor(() => expect(document.title).toBe('Create QR Code - Dashboard'))
    await userEvent.click(screen.getByRole('button', { name: 'Paused Codes' }))
    const dialog = await screen.findByRole('dialog', { name: 'Paused Codes Coming Soon' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'View Paused Codes' }))
    await waitFor(() => expect(router.state.location.search).toBe('?view=paused'))
    expect(await screen.findByText('1 paused')).toBeInTheDocument()
  })

  it('collapses My QR Codes and opens a full-screen menu from the hamburger', async () => {
    stubDashboard()
    renderApp('/dashboard')
    const toggle = await screen.findByRole('button', { name: 'My QR Codes' })
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await userEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('link', { name: 'Active Codes' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Open dashboard menu' }))
    const overlay = screen.getByRole('dialog', { name: 'Dashboard menu' })
    await userEvent.click(within(overlay).getByRole('link', { name: 'Paused Codes' }))
    expect(screen.queryByRole('dialog', { name: 'Dashboard menu' })).not.toBeInTheDocument()
    expect(await screen.findByText('1 paused')).toBeInTheDocument()
  })
})

import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { Client } from './api/clients'
import { Logo } from '@/components/logo'
import { whiteLabelConfigKey } from '@/lib/white-label'
import { toClientInput } from './components/client-form-dialog'
import { WhiteLabelTheme } from './components/white-label-theme'

const base: Client = {
  id: 1,
  name: 'Squarely',
  customDomain: '',
  subdomain: '',
  logoUrl: '',
  primaryColor: '#3B82F6',
  secondaryColor: '#1E40AF',
  customFavicon: '',
  removeSquarelyBranding: false,
  customCSS: '',
  apiKeyMasked: '',
  isActive: true,
  siteUrl: '',
}
const acme: Client = { ...base, id: 2, name: 'Acme', subdomain: 'acme', apiKeyMasked: 'sq_abcdef…wxyz' }
// The lazy page loads slowly on a busy machine.
const pageLoad = { timeout: 10_000 }
const fullKey = 'sq_abcdef' + 'x'.repeat(30) + 'wxyz'

function stubAdmin(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/user': () => json({ ...alice, isAdmin: true }),
    'GET /api/white-label/clients': () => json([base, acme]),
    ...extra,
  })
}

describe('white-label admin page', { timeout: 30_000 }, () => {
  it('lists clients, with no delete button for client 1', async () => {
    stubAdmin()
    renderApp('/white-label-admin')
    expect(await screen.findByRole('heading', { name: 'Acme' }, pageLoad)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete Acme' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete Squarely' })).not.toBeInTheDocument()
    expect(within(screen.getByTestId('client-2')).getByTestId('client-api-key')).toHaveTextContent('sq_abcdef…wxyz')
  })

  it('says so when the user is not an admin', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/white-label/clients': () => json({ message: 'Admin access required' }, 403),
    })
    renderApp('/white-label-admin')
    expect(await screen.findByText('Admin access required', {}, pageLoad)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add Client' })).not.toBeInTheDocument()
  })

  it('creates a client, sending empty optional fields as absent, and shows its new key once', async () => {
    const beta: Client = { ...acme, id: 3, name: 'Beta', subdomain: '' }
    let list = [base, acme]
    const fetchMock = stubAdmin({
      'GET /api/white-label/clients': () => json(list),
      'POST /api/white-label/clients': () => {
        list = [base, acme, beta]
        return json({ ...beta, apiKey: fullKey }, 201)
      },
    })
    renderApp('/white-label-admin')
    await userEvent.click(await screen.findByRole('button', { name: 'Add Client' }, pageLoad))
    const dialog = await screen.findByRole('dialog', { name: 'Create New Client' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Client' }))
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Name'), '  Beta ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Client' }))
    expect(await screen.findByText('Client created successfully')).toBeInTheDocument()
    const card = await screen.findByTestId('client-3')
    await userEvent.click(within(card).getByRole('button', { name: 'Show API key of Beta' }))
    expect(within(card).getByTestId('client-api-key')).toHaveTextContent(fullKey)
    expect(within(card).getByRole('button', { name: 'Copy API key of Beta' })).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({
      name: 'Beta',
      primaryColor: '#3B82F6',
      secondaryColor: '#1E40AF',
      removeSquarelyBranding: false,
      isActive: true,
    })
  })

  it('shows the server refusal on the field and a destructive toast', async () => {
    stubAdmin({
      'POST /api/white-label/clients': () =>
        json({ message: 'Subdomain must be letters, digits and hyphens, such as acme', errors: { subdomain: 'Subdomain must be letters, digits and hyphens, such as acme' } }, 400),
    })
    renderApp('/white-label-admin')
    await userEvent.click(await screen.findByRole('button', { name: 'Add Client' }, pageLoad))
    const dialog = await screen.findByRole('dialog', { name: 'Create New Client' })
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Beta')
    await userEvent.type(within(dialog).getByLabelText('Subdomain'), 'a.b')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Client' }))
    expect(await within(dialog).findByText('Subdomain must be letters, digits and hyphens, such as acme')).toBeInTheDocument()
  })

  it('shows a rotated key once: toggle and copy with the Copied! toast', async () => {
    stubAdmin({ 'POST /api/white-label/clients/2/rotate-key': () => json({ ...acme, apiKey: fullKey }) })
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderApp('/white-label-admin')
    const card = await screen.findByTestId('client-2', {}, pageLoad)
    expect(within(card).queryByRole('button', { name: 'Show API key of Acme' })).not.toBeInTheDocument()
    await userEvent.click(within(card).getByRole('button', { name: 'Rotate' }))
    await userEvent.click(await within(card).findByRole('button', { name: 'Show API key of Acme' }))
    expect(within(card).getByTestId('client-api-key')).toHaveTextContent(fullKey)
    await userEvent.click(within(card).getByRole('button', { name: 'Hide API key of Acme' }))
    expect(within(card).getByTestId('client-api-key')).toHaveTextContent('sq_abcdef…wxyz')
    await userEvent.click(within(card).getByRole('button', { name: 'Copy API key of Acme' }))
    expect(writeText).toHaveBeenCalledWith(fullKey)
    expect(await screen.findByText('Copied!')).toBeInTheDocument()
    expect(screen.getByText('API key copied to clipboard')).toBeInTheDocument()
  })

  it('deletes a client after confirmation', async () => {
    const fetchMock = stubAdmin({ 'DELETE /api/white-label/clients/2': () => new Response(null, { status: 204 }) })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderApp('/white-label-admin')
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Acme' }, pageLoad))
    expect(await screen.findByText('Client deleted successfully')).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/white-label/clients/2' && init?.method === 'DELETE')).toBe(true)
  })

  it('shows the failure toast when a delete fails', async () => {
    stubAdmin({ 'DELETE /api/white-label/clients/2': () => new Response('', { status: 500 }) })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderApp('/white-label-admin')
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Acme' }, pageLoad))
    expect(await screen.findByText('Failed to delete client')).toBeInTheDocument()
  })
})

describe('toClientInput', () => {
  it('trims and leaves out empty optional fields', () => {
    const fields = { name: ' A ', customDomain: ' ', subdomain: 'acme ', logoUrl: '', primaryColor: '#111111', secondaryColor: '', customFavicon: '', customCSS: '' }
    expect(toClientInput(fields, true, false)).toEqual({ name: 'A', subdomain: 'acme', primaryColor: '#111111', removeSquarelyBranding: true, isActive: false })
  })
})

describe('WhiteLabelTheme', () => {
  const config = { name: 'Acme', primaryColor: '#10B981', secondaryColor: '#065F46', customFavicon: '', customCSS: 'h1{color:red}', logoUrl: '', removeSquarelyBranding: false, isDefault: false }

  it("applies a client's colours, CSS and title", async () => {
    stubFetch({ 'GET /api/white-label/config': () => json(config) })
    const { unmount } = render(
      <AppProvider queryClient={createQueryClient()}>
        <WhiteLabelTheme />
      </AppProvider>,
    )
    await waitFor(() => expect(document.title).toBe('Acme - QR Code Generator'))
    expect(document.documentElement.style.getPropertyValue('--brand-primary')).toBe('#10B981')
    expect(document.getElementById('white-label-css')?.textContent).toBe('h1{color:red}')
    unmount()
    expect(document.documentElement.style.getPropertyValue('--brand-primary')).toBe('')
    expect(document.getElementById('white-label-css')).toBeNull()
  })

  it('keeps the default look for the default client and records a failed fetch', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    stubFetch({ 'GET /api/white-label/config': () => new Response('', { status: 500 }) })
    const client = createQueryClient()
    render(
      <AppProvider queryClient={client}>
        <WhiteLabelTheme />
      </AppProvider>,
    )
    // Retried 3 times (4 calls) before giving up; the test does not wait for the backoff.
    await waitFor(() => expect(client.getQueryState(['/api/white-label/config'])?.fetchFailureCount).toBeGreaterThanOrEqual(1))
    expect(document.documentElement.style.getPropertyValue('--brand-primary')).toBe('')
    expect(error).not.toHaveBeenCalledWith(expect.stringContaining('Acme'))
  })

  it("shows the client's name in the logo, credited unless it removes our branding", () => {
    for (const [removeSquarelyBranding, credited] of [
      [false, true],
      [true, false],
    ]) {
      const client = createQueryClient()
      client.setQueryData(whiteLabelConfigKey, { ...config, removeSquarelyBranding })
      const { unmount } = render(
        <AppProvider queryClient={client}>
          <Logo />
        </AppProvider>,
      )
      expect(screen.getByText('Acme')).toBeInTheDocument()
      expect(screen.queryByText('by Squarely') !== null).toBe(credited)
      unmount()
    }
  })
})

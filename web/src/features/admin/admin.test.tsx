import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { Mailing } from './api/mailings'

// The page is lazy-loaded: the first lookup of each test waits for it.
const pageLoad = { timeout: 10_000 }

const stats = { totalUsers: 120, newUsers: 7, totalQRCodes: 300, newQRCodes: 25, mailEnabled: true }

const mailing = (over: Partial<Mailing> = {}): Mailing => ({
  id: 1,
  kind: 'newsletter',
  subject: 'November news',
  status: 'sending',
  totalUsers: 40,
  successCount: 10,
  pending: 30,
  failed: 0,
  skipped: 0,
  interrupted: 0,
  createdAt: '2026-11-22T10:00:00Z',
  finishedAt: null,
  ...over,
})

// Typing and lazy loading are slow on a busy machine.
describe('admin panel', { timeout: 20_000 }, () => {
  it('sends a visitor to /', async () => {
    stubFetch({ 'GET /api/user': () => new Response('', { status: 401 }) })
    const { router } = renderApp('/newsletter')
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), pageLoad)
  })

  it('tells a signed-in non-admin that the server refused', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json({ message: 'Admin access required' }, 403),
    })
    renderApp('/newsletter')
    expect(await screen.findByText('Admin access required', {}, pageLoad)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send Newsletter' })).not.toBeInTheDocument()
    expect(mock.mock.calls.some(([url]) => url === '/api/mailings')).toBe(false)
  })

  it('shows the stats, the form and the progress of mailings', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json(stats),
      'GET /api/mailings': () => json({ mailings: [mailing()] }),
    })
    renderApp('/newsletter')
    expect(await screen.findByRole('heading', { name: 'Newsletter Manager' }, pageLoad)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard')
    for (const [label, value] of [['Total Users', '120'], ['New Users (30 days)', '7'], ['Total QR Codes', '300'], ['New QR Codes (30 days)', '25']]) {
      expect(screen.getByText(label).nextSibling).toHaveTextContent(value)
    }
    expect(screen.getByLabelText('Content')).toHaveAttribute('rows', '15')
    expect(screen.getByRole('switch', { name: 'Include platform stats' })).toBeChecked()
    const bar = await screen.findByRole('progressbar', { name: 'Newsletter: November news progress' })
    expect(bar).toHaveAttribute('aria-valuenow', '25')
    expect(screen.getByText('Sending: 10 of 40 sent')).toBeInTheDocument()
  })

  it("shows an admin the instance's access settings, read only (issue 33)", async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, isAdmin: true }),
      'GET /api/newsletter/stats': () => json(stats),
      'GET /api/mailings': () => json({ mailings: [] }),
      'GET /api/white-label/config': () => json({ isDefault: true, googleSignIn: false, passwordLogin: false, publicGenerator: true }),
      'GET /api/auth/providers': () => json({ oidc: { name: 'Acme SSO' }, signup: 'invite', signupDomains: ['acme.test'] }),
    })
    renderApp('/newsletter')
    expect(await screen.findByRole('heading', { name: 'Instance' }, pageLoad)).toBeInTheDocument()
    const value = (term: string) => screen.getByText(term).nextSibling
    expect(await screen.findByText('Only addresses with a pending workspace invitation can make an account')).toBeInTheDocument()
    expect(value('E-mail domains (SQUARELY_SIGNUP_DOMAINS)')).toHaveTextContent('acme.test')
    expect(value('Password sign-in (SQUARELY_PASSWORD_LOGIN)')).toHaveTextContent('Off: admins only, as break-glass')
    expect(value('Generator for visitors (SQUARELY_PUBLIC_GENERATOR)')).toHaveTextContent('On')
    expect(value('Single sign-on (SQUARELY_OIDC_ISSUER)')).toHaveTextContent('Acme SSO')
    expect(screen.queryByRole('textbox', { name: /SQUARELY_SIGNUP/ })).not.toBeInTheDocument()
  })

  it('says so and sends nothing when the server has no e-mail', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json({ ...stats, mailEnabled: false }),
      'GET /api/mailings': () => json({ mailings: [] }),
    })
    renderApp('/newsletter')
    expect(await screen.findByText(/E-mail is off on this server/, {}, pageLoad)).toBeInTheDocument()
    for (const name of ['Send Newsletter', 'Send Welcome to All Users', 'Send Scan Notifications', 'Send Pause Notifications', 'Send me a test e-mail']) {
      expect(screen.getByRole('button', { name })).toBeDisabled()
    }
  })

  it("asks for both fields before sending: 'Missing Information'", async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json(stats),
      'GET /api/mailings': () => json({ mailings: [] }),
    })
    renderApp('/newsletter')
    await userEvent.type(await screen.findByLabelText('Subject', {}, pageLoad), 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Send Newsletter' }))
    expect(await screen.findByText('Missing Information')).toBeInTheDocument()
    expect(screen.getByText('Please provide both subject and content for the newsletter.')).toBeInTheDocument()
    expect(mock.mock.calls.some(([url]) => url === '/api/send-newsletter')).toBe(false)
  })

  it("sends the newsletter with stats on by default: 'Newsletter Sent!'", async () => {
    let sent: unknown
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json(stats),
      'GET /api/mailings': () => json({ mailings: sent ? [mailing({ status: 'done', successCount: 40, pending: 0 })] : [] }),
      'POST /api/send-newsletter': (init) => {
        sent = JSON.parse(String(init?.body))
        return json(mailing({ status: 'queued', successCount: 0 }), 202)
      },
    })
    renderApp('/newsletter')
    await userEvent.type(await screen.findByLabelText('Subject', {}, pageLoad), 'November news')
    await userEvent.type(screen.getByLabelText('Content'), 'Hello everyone')
    await userEvent.click(screen.getByRole('button', { name: 'Send Newsletter' }))
    expect(await screen.findByText('Newsletter Sent!')).toBeInTheDocument()
    expect(sent).toEqual({ subject: 'November news', content: 'Hello everyone', includeStats: true })
    const list = await screen.findByRole('list', { name: 'Recent mailings' })
    expect(await within(list).findByText('Finished: 40 of 40 sent')).toBeInTheDocument()
  })

  it("shows the server's message when a mailing is refused", async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/newsletter/stats': () => json(stats),
      'GET /api/mailings': () => json({ mailings: [] }),
      'POST /api/send-welcome-to-all': () => json({ message: 'A mailing of this kind is still being sent; wait for it to finish.' }, 409),
    })
    renderApp('/newsletter')
    await userEvent.click(await screen.findByRole('button', { name: 'Send Welcome to All Users' }, pageLoad))
    expect(await screen.findByText('A mailing of this kind is still being sent; wait for it to finish.')).toBeInTheDocument()
  })
})

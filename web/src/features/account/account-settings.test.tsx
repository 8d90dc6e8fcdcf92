import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { subscriptionLabel } from './labels'

function bodyOf(mock: ReturnType<typeof stubFetch>, url: string) {
  const call = mock.mock.calls.find(([u]) => u === url)
  return call ? (JSON.parse(String(call[1]?.body)) as unknown) : undefined
}

describe('account settings', () => {
  it('shows the e-mail, the name, the capitalised subscription and the account type', async () => {
    stubFetch({ 'GET /api/user': () => json({ ...alice, firstName: 'Alice', lastName: 'Liddell', googleId: 'g-1', emailVerified: true }) })
    renderApp('/account-settings')
    // The first test loads the lazy page's code.
    expect(await screen.findByRole('heading', { name: 'Account Settings' }, { timeout: 15_000 })).toBeInTheDocument()
    expect(screen.getByText('alice@example.com')).toBeInTheDocument()
    expect(screen.getByText('Alice Liddell')).toBeInTheDocument()
    expect(screen.getByText('Free')).toBeInTheDocument()
    expect(screen.getByText('Google account')).toBeInTheDocument()
    expect(screen.queryByText('Not confirmed')).not.toBeInTheDocument()
    // The export lives under the workspace's tabs; the danger zone points there.
    expect(screen.queryByRole('link', { name: 'Download my data' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Export' })).toHaveAttribute('href', '/workspace/export')
  })

  it('offers the data export and the API keys under the workspace tabs', async () => {
    stubFetch({ 'GET /api/user': () => json(alice), 'GET /api/api-keys': () => json([]), 'GET /api/folders': () => json([]) })
    renderApp('/workspace/export')
    expect(await screen.findByRole('link', { name: 'Download my data' }, { timeout: 15_000 })).toHaveAttribute('href', '/api/account/export')
    const tabs = screen.getByRole('navigation', { name: 'Workspace' })
    expect(within(tabs).getByRole('link', { name: 'Export' })).toHaveAttribute('aria-current', 'page')
    await userEvent.click(within(tabs).getByRole('link', { name: 'API keys' }))
    expect(await screen.findByRole('heading', { name: 'API keys', level: 1 }, { timeout: 15_000 })).toBeInTheDocument()
  })

  it('edits the name: trimmed, Save, the toast and the refetched user; Cancel restores', async () => {
    let user = { ...alice, firstName: '', lastName: '' }
    const mock = stubFetch({
      'GET /api/user': () => json(user),
      'PUT /api/update-name': () => {
        user = { ...user, firstName: 'Ada', lastName: 'Lovelace' }
        return json(user)
      },
    })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }))
    await userEvent.type(screen.getByLabelText('First name'), 'Nobody')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByText('Not set')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Edit' }))
    await userEvent.type(screen.getByLabelText('First name'), '  Ada ')
    await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name Updated')).toBeInTheDocument()
    expect(screen.getByText('Your name has been successfully updated.')).toBeInTheDocument()
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument()
    expect(bodyOf(mock, '/api/update-name')).toEqual({ firstName: 'Ada', lastName: 'Lovelace' })
    expect(mock.mock.calls.filter(([u]) => u === '/api/user').length).toBeGreaterThan(1)
  })

  it("shows the server's message when the name update fails", async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'PUT /api/update-name': () => json({ message: 'First name must be at most 100 characters' }, 400),
    })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }))
    await userEvent.type(screen.getByLabelText('First name'), 'A')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Error')).toBeInTheDocument()
    expect(screen.getByText('First name must be at most 100 characters')).toBeInTheDocument()
  })

  it('puts a refused name\'s message under its field, marked invalid and focused, besides the toast', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'PUT /api/update-name': () =>
        json({ message: 'Last name must not contain control or formatting characters', errors: { lastName: 'Last name must not contain control or formatting characters' } }, 400),
    })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }))
    await userEvent.type(screen.getByLabelText('Last name'), 'B')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const last = screen.getByLabelText('Last name')
    await waitFor(() => expect(last).toHaveAttribute('aria-invalid', 'true'))
    expect(last).toHaveAccessibleDescription('Last name must not contain control or formatting characters')
    expect(last).toHaveFocus()
    expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid')
  })

  // The page then loads / afresh; the browser test (e2e/tests/account.spec.ts) sees it signed out.
  it('deletes the account after confirmation and loads / after the 2-second delay', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/delete-account': () => json({ message: 'Account deleted' }),
    })
    const replace = vi.fn()
    vi.stubGlobal('location', { ...window.location, replace })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
    await userEvent.click(dialog.querySelector('button.bg-red-600') as HTMLElement)
    expect(await screen.findByText('Account Deleted')).toBeInTheDocument()
    expect(screen.getByText('Your account has been successfully deleted. You will now be logged out.')).toBeInTheDocument()
    expect(replace).not.toHaveBeenCalled()
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/'), { timeout: 4000 })
    expect(mock.mock.calls.some(([u]) => u === '/api/delete-account')).toBe(true)
  }, 15_000) // the 2-second delay of spec 02 §9

  it('offers the confirmation link again while the address is not confirmed', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json({ ...alice, emailVerified: false }),
      'POST /api/resend-verification': () => json({ message: 'We have sent a confirmation link to your email address.' }),
    })
    renderApp('/account-settings')
    expect(await screen.findByText('Not confirmed')).toBeInTheDocument()
    expect(screen.getByText('Email account')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Send the confirmation link again' }))
    expect(await screen.findByText('We have sent a confirmation link to your email address.')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/resend-verification')).toBe(true)
  })

  it('capitalises the subscription status, Free by default', () => {
    expect(subscriptionLabel(undefined)).toBe('Free')
    expect(subscriptionLabel('active')).toBe('Active')
    expect(subscriptionLabel('past_due')).toBe('Past due')
  })
})

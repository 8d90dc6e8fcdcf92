import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

const signedOut = { 'GET /api/user': () => json({ message: 'Not authenticated' }, 401) }

describe('header for visitors', () => {
  it('offers the marketing links, Log in and Start Free Trial', async () => {
    stubFetch(signedOut)
    renderApp('/faq')
    const nav = await screen.findByRole('navigation', { name: 'Main' })
    const links = { Features: '/features', 'Use Cases': '/use-cases', Templates: '/templates', Blog: '/blog', FAQ: '/faq', Pricing: '/subscribe' }
    for (const [name, href] of Object.entries(links)) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href)
    }
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth')
    expect(screen.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '/auth?mode=register')
    expect(screen.getByRole('link', { name: 'Squarely home' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Account menu' })).not.toBeInTheDocument()
  })

  it('has a mobile menu with the links plus Sign In and Sign Up', async () => {
    stubFetch(signedOut)
    renderApp('/faq')
    await screen.findByRole('link', { name: 'Log in' })
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    const menu = screen.getByRole('navigation', { name: 'Mobile' })
    expect(within(menu).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/subscribe')
    expect(within(menu).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth')
    expect(within(menu).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/auth?mode=register')
    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }))
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument()
  })

  it('shows the newsletter signup in the footer', async () => {
    stubFetch(signedOut)
    renderApp('/faq')
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeInTheDocument()
  })
})

describe('header for signed-in users', () => {
  it('shows an avatar menu with the username and the account items', async () => {
    stubFetch({ 'GET /api/user': () => json(alice) })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByText('alice@example.com')).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Account Settings' })).toHaveAttribute('href', '/account-settings')
    expect(within(menu).getByRole('menuitem', { name: 'Bulk Generation' })).toHaveAttribute('href', '/bulk-generation')
    expect(within(menu).getByRole('menuitem', { name: 'Subscription' })).toHaveAttribute('href', '/subscribe')
    expect(within(menu).getByRole('menuitem', { name: 'Change Password' })).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument()
  })

  it('links the footer to the account pages instead of the newsletter', async () => {
    stubFetch({ 'GET /api/user': () => json(alice) })
    renderApp('/faq')
    expect(await screen.findByRole('link', { name: 'My QR Codes' })).toHaveAttribute('href', '/dashboard')
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument()
  })

  it('shows the e-mail beside the username when they differ', async () => {
    stubFetch({ 'GET /api/user': () => json({ id: 2, username: 'bob', email: 'bob@example.com' }) })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByText('bob')).toBeInTheDocument()
    expect(within(menu).getByText('bob@example.com')).toBeInTheDocument()
  })

  it('logs out: toast, visitor header, saved codes refreshed', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/logout': () => new Response(null, { status: 200 }),
    })
    const queryClient = createQueryClient()
    queryClient.setQueryData(['/api/qrcodes'], [{ id: 1 }])
    renderApp('/faq', queryClient)
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByText('Logged out')).toBeInTheDocument()
    expect(queryClient.getQueryState(['/api/qrcodes'])?.isInvalidated).toBe(true)
    expect(queryClient.getQueryData(['/api/user'])).toBeNull()
    expect(screen.getByText('You have been successfully logged out')).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/logout', { method: 'POST', credentials: 'include' })
  })

  it('reports a failed logout with the server message', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/logout': () => json({ message: 'Session store unavailable' }, 500),
    })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByText('Logout failed')).toBeInTheDocument()
    expect(screen.getByText('Session store unavailable')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument()
  })

  it('validates the change password dialog, then changes the password on the server', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/change-password': () => json({ message: 'Password updated' }),
    })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Password' }))
    expect(await within(dialog).findByText('Current password is required')).toBeInTheDocument()
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument()
    expect(within(dialog).getByText('Please confirm your new password')).toBeInTheDocument()

    await userEvent.type(within(dialog).getByLabelText('Current password'), 'old-secret')
    await userEvent.type(within(dialog).getByLabelText('New password'), 'new-secret')
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), 'other-secret')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Password' }))
    expect(await within(dialog).findByText("Passwords don't match")).toBeInTheDocument()

    await userEvent.clear(within(dialog).getByLabelText('Confirm new password'))
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), 'new-secret')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Password' }))
    expect(await screen.findByText('Password updated')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/change-password')
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ currentPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secret' })
  })

  it('shows the server refusing a wrong current password and keeps the dialog open', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/change-password': () => json({ message: 'Current password is incorrect', errors: { currentPassword: 'Current password is incorrect' } }, 400),
    })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' })
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'wrong-secret')
    await userEvent.type(within(dialog).getByLabelText('New password'), 'new-secret')
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), 'new-secret')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Password' }))
    expect(await screen.findByText('Error')).toBeInTheDocument()
    // Under the field too, which is marked invalid and focused.
    const current = within(dialog).getByLabelText('Current password')
    await waitFor(() => expect(current).toHaveAccessibleDescription('Current password is incorrect'))
    expect(current).toHaveAttribute('aria-invalid', 'true')
    expect(current).toHaveFocus()
    expect(within(dialog).getByLabelText('New password')).not.toHaveAttribute('aria-invalid')
    expect(screen.queryByText('Password updated')).not.toBeInTheDocument()
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('lets an account without a password set its first one without the current one', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json({ ...alice, hasPassword: false }),
      'POST /api/change-password': () => json({ message: 'Password updated' }),
    })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Set a Password' })
    expect(within(dialog).queryByLabelText('Current password')).not.toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('New password'), 'first-secret')
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), 'first-secret')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Password' }))
    expect(await screen.findByText('Password updated')).toBeInTheDocument()
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/change-password')
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ newPassword: 'first-secret', confirmPassword: 'first-secret' })
  })
})

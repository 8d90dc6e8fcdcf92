import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

const signedOut = () => json({ message: 'Not authenticated' }, 401)

describe('set-password page', () => {
  it('checks the passwords before calling the server', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut })
    renderApp('/set-password?token=abc')
    await userEvent.type(await screen.findByLabelText('New password'), '123')
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }))
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument()
    expect(screen.getByText('Please confirm your new password')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('New password'))
    await userEvent.type(screen.getByLabelText('New password'), 'secret1')
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret2')
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }))
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/set-password')).toBe(false)
  })

  it('sends the token and password, signs in and goes home', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/set-password': () => json(alice) })
    const { router } = renderApp('/set-password?token=abc')
    await userEvent.type(await screen.findByLabelText('New password'), 'secret1')
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }))
    expect(await screen.findByText('Password set')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    const call = mock.mock.calls.find(([u]) => u === '/api/set-password')
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ token: 'abc', password: 'secret1' })
  })

  it("shows the server's message for a used or expired link", async () => {
    const message = 'This link is invalid or has expired. Please ask for a new one.'
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/set-password': () => json({ message }, 400) })
    renderApp('/set-password?token=old')
    await userEvent.type(await screen.findByLabelText('New password'), 'secret1')
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
  })

  it('says so when the link has no token', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    renderApp('/set-password')
    expect(await screen.findByText(/This link is incomplete/)).toBeInTheDocument()
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument()
  })
})

import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { Toaster } from '@/components/ui/toaster'
import { userQueryKey } from '@/lib/auth'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, stubFetch } from '@/test/render-app'
import { FreeTrialBanner } from './free-trial-banner'

function renderBanner() {
  const client = createQueryClient()
  render(
    <QueryClientProvider client={client}>
      <FreeTrialBanner />
      <Toaster />
    </QueryClientProvider>,
  )
  return client
}

const activations = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.filter(([u]) => u === '/api/activate-trial')

describe('the free-trial banner', () => {
  it('asks for an e-mail address and sends nothing without one', async () => {
    const mock = stubFetch({})
    renderBanner()
    expect(screen.getByLabelText('Your email address')).toHaveAttribute('type', 'email')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText('Email Required')).toBeInTheDocument()
    expect(screen.getByText('Please enter your email address to activate your free trial.')).toBeInTheDocument()
    expect(activations(mock)).toHaveLength(0)
  })

  it('activates the trial and takes the returned user', async () => {
    const mock = stubFetch({ 'POST /api/activate-trial': () => json({ message: 'ok', user: alice }) })
    const client = renderBanner()
    await userEvent.type(screen.getByLabelText('Your email address'), ' alice@example.com ')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText('Free Trial Activated!')).toBeInTheDocument()
    expect(screen.getByText('3 days of premium features unlocked.')).toBeInTheDocument()
    expect(JSON.parse(String(activations(mock)[0][1]?.body))).toEqual({ email: 'alice@example.com' })
    expect(client.getQueryData(userQueryKey)).toEqual(alice)
  })

  it("shows the server's message when activation fails", async () => {
    stubFetch({ 'POST /api/activate-trial': () => json({ message: 'Your trial has already been used' }, 409) })
    renderBanner()
    await userEvent.type(screen.getByLabelText('Your email address'), 'alice@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText('Activation Failed')).toBeInTheDocument()
    expect(screen.getByText('Your trial has already been used')).toBeInTheDocument()
  })

  it('puts a refused address under the field too, marked invalid and focused', async () => {
    const invalid = 'Please enter a valid email'
    stubFetch({ 'POST /api/activate-trial': () => json({ message: invalid, errors: { email: invalid } }, 400) })
    renderBanner()
    const field = screen.getByLabelText('Your email address')
    await userEvent.type(field, 'alice@example')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText('Activation Failed')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription(invalid)
    expect(field).toHaveFocus()
  })

  it('falls back to its own words', async () => {
    stubFetch({ 'POST /api/activate-trial': () => new Response('', { status: 500 }) })
    renderBanner()
    await userEvent.type(screen.getByLabelText('Your email address'), 'alice@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }))
    expect(await screen.findByText('Failed to activate free trial. Please try again.')).toBeInTheDocument()
  })
})

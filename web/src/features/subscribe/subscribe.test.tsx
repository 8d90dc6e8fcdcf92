import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

// The lazy page and its queries can take seconds on a busy machine.
const slow = { timeout: 10_000 }

const on = { 'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1', pricingTableId: 'prctbl_1' }) }

describe('subscribe page', { timeout: 20_000 }, () => {
  it('says plainly that payments are not available without Stripe', async () => {
    stubFetch({
      'GET /api/user': () => json({ message: 'Not authenticated' }, 401),
      'GET /api/billing/config': () => json({ enabled: false, message: 'Payments are not available yet.' }),
    })
    renderApp('/subscribe')
    expect(await screen.findByTestId('payments-off', undefined, slow)).toHaveTextContent('Payments are not available yet.')
    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument()
    expect(screen.getByText(/3-day free trial/)).toBeInTheDocument()
  })

  it("gives a signed-in user's pricing table their e-mail and id", async () => {
    stubFetch({
      ...on,
      'GET /api/user': () => json(alice),
      'POST /api/billing/pricing-table': () => json({ clientReferenceId: '1', customerEmail: 'alice@example.com' }),
    })
    const { container } = renderApp('/subscribe')
    const table = await waitFor(() => {
      const element = container.querySelector('stripe-pricing-table')
      if (!element) throw new Error('no pricing table yet')
      return element
    }, slow)
    expect(table.getAttribute('pricing-table-id')).toBe('prctbl_1')
    expect(table.getAttribute('publishable-key')).toBe('pk_test_1')
    expect(table.getAttribute('customer-email')).toBe('alice@example.com')
    expect(table.getAttribute('client-reference-id')).toBe('1')
    expect(document.querySelector('script[src="https://js.stripe.com/v3/pricing-table.js"]')).not.toBeNull()
  })

  it('offers a subscriber Manage subscription instead of a second checkout', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const mock = stubFetch({
      ...on,
      'GET /api/user': () => json({ ...alice, subscriptionStatus: 'active' }),
      'POST /api/billing-portal': () => json({ url: 'https://billing.stripe.com/p/session/test' }),
    })
    const { container } = renderApp('/subscribe')
    await userEvent.click(await screen.findByRole('button', { name: 'Manage subscription' }, slow))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test'), slow)
    expect(container.querySelector('stripe-pricing-table')).toBeNull()
    expect(mock.mock.calls.some(([url]) => String(url).includes('pricing-table'))).toBe(false)
  })

  it("shows the server's refusal of a second checkout", async () => {
    stubFetch({
      ...on,
      'GET /api/user': () => json(alice),
      'POST /api/billing/pricing-table': () => json({ message: 'You already have a subscription. Use Manage subscription to change or cancel it.' }, 409),
    })
    renderApp('/subscribe')
    expect(await screen.findByText(/You already have a subscription/, undefined, slow)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Manage subscription' })).toBeInTheDocument()
  })
})

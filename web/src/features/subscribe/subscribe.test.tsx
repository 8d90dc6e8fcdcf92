import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

// The lazy page and its queries can take seconds on a busy machine.
const slow = { timeout: 10_000 }

const on = { 'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1', pricingTableId: 'prctbl_1' }) }

describe('subscribe page', { timeout: 20_000 }, () => {
  it('states the price and says plainly that subscriptions are not configured without Stripe', async () => {
    stubFetch({
      'GET /api/user': () => json({ message: 'Not authenticated' }, 401),
      'GET /api/billing/config': () => json({ enabled: false, message: 'Payments are not available yet.', dynamicLimit: 12 }),
    })
    renderApp('/subscribe')
    expect(await screen.findByTestId('payments-off', undefined, slow)).toHaveTextContent('Subscriptions are not configured yet')
    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument()
    expect(screen.getByText(/3-day free trial/)).toBeInTheDocument()
    expect(screen.getByTestId('premium-price')).toHaveTextContent('$9.99/month')
    expect(screen.getByTestId('premium-plan')).toHaveTextContent('Unlimited dynamic QR codes (free accounts keep up to 12)')
    expect(screen.getByTestId('premium-plan')).toHaveTextContent('Bulk jobs and duplicates of dynamic codes without a cap')
    expect(screen.getByTestId('trial-note')).toHaveTextContent('While it runs, the 3-day trial gives all of this too')
    expect(screen.queryByRole('button', { name: /Subscribe for/ })).not.toBeInTheDocument()
  })

  it('says subscriptions are not configured when Stripe has neither a pricing table nor a price', async () => {
    stubFetch({ 'GET /api/user': () => json(alice), 'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1', pricingTableId: '', priceId: '' }) })
    const { container } = renderApp('/subscribe')
    expect(await screen.findByTestId('payments-off', undefined, slow)).toHaveTextContent('Subscriptions are not configured yet')
    expect(container.querySelector('stripe-pricing-table')).toBeNull()
  })

  it('without a pricing table, Subscribe starts Stripe Checkout for the price', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1', pricingTableId: '', priceId: 'price_1' }),
      'POST /api/billing/checkout-session': () => json({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' }),
    })
    const { container } = renderApp('/subscribe')
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe for $9.99/month' }, slow))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'), slow)
    expect(mock.mock.calls.some(([url, init]) => url === '/api/billing/checkout-session' && init?.method === 'POST')).toBe(true)
    expect(container.querySelector('stripe-pricing-table')).toBeNull()
    expect(screen.getByTestId('premium-price')).toHaveTextContent('$9.99/month')
  })

  it('sends a visitor to create an account before the checkout', async () => {
    stubFetch({
      'GET /api/user': () => json({ message: 'Not authenticated' }, 401),
      'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1', pricingTableId: '', priceId: 'price_1' }),
    })
    renderApp('/subscribe')
    expect(await screen.findByRole('link', { name: 'Create an account to subscribe' }, slow)).toHaveAttribute('href', '/auth?mode=register')
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

import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, renderApp, stubFetch } from '@/test/render-app'

// The lazy page and its queries can take seconds on a busy machine.
const slow = { timeout: 10_000 }

const signedOut = { 'GET /api/user': () => json({ message: 'Not authenticated' }, 401) }
const off = { 'GET /api/billing/config': () => json({ enabled: false, message: 'Payments are not available yet.' }) }
const tea = { id: 7, productName: 'Green tea', productDescription: 'Loose leaf, 100 g', productPrice: 1250 }

describe('payment checkout', { timeout: 20_000 }, () => {
  it("says 'Product ID is required' without an id", async () => {
    stubFetch({ ...signedOut, ...off })
    renderApp('/payment')
    expect(await screen.findByRole('heading', { name: 'Product ID is required' }, slow)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument()
  })

  it("shows 'Product Not Found' with Go Back for an unknown product", async () => {
    stubFetch({ ...signedOut, ...off, 'GET /api/payment-product/999': () => json({ message: 'Product not found' }, 404) })
    renderApp('/payment?id=999')
    expect(await screen.findByRole('heading', { name: 'Product Not Found' }, slow)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument()
  })

  it('shows the order summary in dollars, and says plainly when payments are off', async () => {
    const mock = stubFetch({ ...signedOut, ...off, 'GET /api/payment-product/7': () => json(tea) })
    renderApp('/payment?id=7')
    expect(await screen.findByTestId('product-name', undefined, slow)).toHaveTextContent('Green tea')
    expect(screen.getByTestId('product-description')).toHaveTextContent('Loose leaf, 100 g')
    expect(screen.getByTestId('product-price')).toHaveTextContent('$12.50')
    expect(await screen.findByTestId('payments-off', undefined, slow)).toHaveTextContent('Payments are not available yet.')
    expect(mock.mock.calls.some(([url]) => String(url).includes('create-payment-intent'))).toBe(false)
  })

  it("shows 'Could not process payment setup' when the intent is refused", async () => {
    stubFetch({
      ...signedOut,
      'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1' }),
      'GET /api/payment-product/7': () => json(tea),
      'POST /api/create-payment-intent': () => json({ message: 'Stripe could not be reached.' }, 502),
    })
    renderApp('/payment?id=7')
    expect(await screen.findByText('Could not process payment setup', undefined, slow)).toBeInTheDocument()
  })

  it('shows a preview summary for a code not generated yet', async () => {
    stubFetch({ ...signedOut, ...off })
    renderApp('/payment?temp=true&name=Cake&price=3.5')
    expect(await screen.findByTestId('product-price', undefined, slow)).toHaveTextContent('$3.50')
    expect(screen.getByText(/This is a preview/)).toBeInTheDocument()
  })
})

describe('payment success', { timeout: 20_000 }, () => {
  const enabled = { 'GET /api/billing/config': () => json({ enabled: true, publishableKey: 'pk_test_1' }) }

  it('shows the status the server reports, not the one in the query', async () => {
    stubFetch({
      ...signedOut,
      ...enabled,
      'GET /api/payment-intent/pi_1': () => json({ id: 'pi_1', status: 'requires_payment_method', amount: 1250, currency: 'usd' }),
    })
    renderApp('/payment-success?payment_intent=pi_1&redirect_status=succeeded')
    expect(await screen.findByRole('heading', { name: 'Payment Not Completed' }, slow)).toBeInTheDocument()
    expect(screen.queryByText('Payment Successful!')).not.toBeInTheDocument()
  })

  it("shows 'Payment Successful!' with Go Back and Return Home", async () => {
    stubFetch({
      ...signedOut,
      ...enabled,
      'GET /api/payment-intent/pi_2': () => json({ id: 'pi_2', status: 'succeeded', amount: 1250, currency: 'usd' }),
    })
    renderApp('/payment-success?payment_intent=pi_2')
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' }, slow)).toBeInTheDocument()
    expect(screen.getByText(/\$12\.50/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/'))
  })
})

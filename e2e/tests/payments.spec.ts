import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Payments against the real binary, whose Stripe API is stripe-mock (see
// playwright.config.ts). Stripe.js cannot load here: a small stand-in for
// js.stripe.com is served instead. It renders the pricing table's attributes
// and a card field, and confirms a payment as Stripe.js would when no
// redirect is needed. Everything behind it (products, payment intents,
// statuses) is the server's real answer.

const stripeStandIn = `
(() => {
  const element = {
    mount(node) {
      const target = typeof node === 'string' ? document.querySelector(node) : node
      target.innerHTML = '<label>Card number <input name="card" value="4242 4242 4242 4242"></label>'
    },
    on() {}, off() {}, once() {}, update() {}, destroy() {}, unmount() {}, focus() {}, blur() {}, clear() {}, collapse() {},
  }
  window.Stripe = function (publishableKey) {
    let clientSecret = ''
    return {
      publishableKey,
      _registerWrapper() {},
      registerAppInfo() {},
      // react-stripe-js recognises a Stripe object by these.
      async createToken() { return {} },
      async createPaymentMethod() { return {} },
      async confirmCardPayment() { return {} },
      elements(options) {
        clientSecret = (options && options.clientSecret) || ''
        return { create: () => element, getElement: () => element, update() {}, submit: async () => ({}), fetchUpdates: async () => ({}) }
      },
      async confirmPayment({ confirmParams, redirect }) {
        window.__stripeConfirmed = { clientSecret, returnUrl: confirmParams.return_url, redirect }
        return { paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'succeeded' } }
      },
    }
  }
  window.Stripe.version = 'endive'
})()
`

const pricingTableStandIn = `
customElements.define('stripe-pricing-table', class extends HTMLElement {
  connectedCallback() {
    this.setAttribute('data-rendered', 'true')
    this.textContent = 'Pricing table ' + this.getAttribute('pricing-table-id') + ' for ' +
      (this.getAttribute('customer-email') || 'a visitor') + ' (reference ' + (this.getAttribute('client-reference-id') || 'none') + ')'
  }
})
`

async function serveStripeStandIn(page: Page) {
  await page.route('https://js.stripe.com/**', (route) => {
    const body = route.request().url().includes('pricing-table') ? pricingTableStandIn : stripeStandIn
    return route.fulfill({ contentType: 'application/javascript', body })
  })
}

test('/subscribe renders the pricing table with the signed-in user’s e-mail and workspace id, under a policy that allows Stripe', async ({ page }) => {
  await serveStripeStandIn(page)
  const user = await signUp(page, uniqueEmail('pay'))
  // The subscriber is the active workspace (the webhook reads its id back).
  const me = (await (await page.request.get('/api/user')).json()) as { workspace: { id: number } }
  const response = await page.goto('/subscribe')
  expect(response?.headers()['content-security-policy']).toContain('https://js.stripe.com')
  await expect(page.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeVisible()
  await expect(page.getByText(/3-day free trial/)).toBeVisible()
  // The price is stated beside the table (issue 21), and what it adds.
  await expect(page.getByTestId('premium-price')).toHaveText('$9.99/month')
  await expect(page.getByTestId('premium-plan')).toContainText('Unlimited dynamic QR codes')
  expect(await page.title()).toBe('QR Code Pricing, Subscription Plans')
  const table = page.locator('stripe-pricing-table')
  await expect(table).toHaveAttribute('data-rendered', 'true')
  await expect(table).toHaveAttribute('customer-email', user.username)
  await expect(table).toHaveAttribute('client-reference-id', String(me.workspace.id))
  await expect(table).toHaveAttribute('pricing-table-id', 'prctbl_e2e')
  await expect(table).toHaveAttribute('publishable-key', 'pk_test_e2e')
  await expect(table).toContainText(`for ${user.username}`)
})

test('reaching /subscribe from another page loads it afresh, so Stripe is allowed', async ({ page }) => {
  await serveStripeStandIn(page)
  await page.goto('/faq')
  expect((await page.request.get('/faq')).headers()['content-security-policy']).not.toContain('stripe')
  await page.getByRole('link', { name: 'Pricing' }).first().click()
  await expect(page).toHaveURL(/\/subscribe$/)
  // The reload fetches the page and the app again.
  await expect(page.locator('stripe-pricing-table')).toHaveAttribute('data-rendered', 'true', { timeout: 20_000 })
  await expect(page.locator('stripe-pricing-table')).toContainText('for a visitor')
})

test('a payment code made in the generator opens a checkout that charges the stored price and announces success only once the server confirms it', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000) // two browsers, a saved code and a checkout on a shared machine
  await signUp(page, uniqueEmail('pay'))
  await page.goto('/dashboard?create=true')
  const generator = page.locator('form', { has: page.getByRole('heading', { name: 'Generate Your QR Code' }) })
  await generator.getByRole('combobox', { name: 'QR code type' }).click()
  await page.getByRole('option', { name: 'Payment', exact: true }).click()
  const name = `E2E tea ${Date.now()}`
  await generator.getByLabel('Product name').fill(name)
  await generator.getByLabel('Price (USD)').fill('12.5')
  await generator.getByLabel('Product description').fill('Loose leaf, 100 g')
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code saved', { exact: true })).toBeVisible()

  const codes = (await (await page.request.get('/api/qrcodes')).json()) as Array<{ qrType: string; data: string; name: string }>
  const code = codes.find((c) => c.qrType === 'payment')
  expect(code?.data).toMatch(/\/payment\?id=\d+$/)
  const checkoutURL = new URL(code?.data ?? '')

  // The buyer scans the code: a fresh browser with no session.
  const buyerContext = await browser.newContext()
  const buyer = await buyerContext.newPage()
  await serveStripeStandIn(buyer)
  const intentRequest = buyer.waitForRequest((r) => r.url().endsWith('/api/create-payment-intent'))
  const intentResponse = buyer.waitForResponse((r) => r.url().endsWith('/api/create-payment-intent'))
  await buyer.goto(checkoutURL.pathname + checkoutURL.search)
  await expect(buyer.getByTestId('product-name')).toHaveText(name)
  await expect(buyer.getByTestId('product-description')).toHaveText('Loose leaf, 100 g')
  await expect(buyer.getByTestId('product-price')).toHaveText('$12.50')
  expect((await intentRequest).postDataJSON()).toMatchObject({ amount: 1250, productId: Number(checkoutURL.searchParams.get('id')) })
  expect((await intentResponse).status()).toBe(200)

  await expect(buyer.getByLabel('Card number')).toBeVisible()
  // The stand-in Stripe.js says the card succeeded; the server, asking Stripe
  // (stripe-mock: requires_payment_method), does not confirm it, so the
  // buyer is not told the payment succeeded (issue 21).
  const serverAsked = buyer.waitForResponse((r) => /\/api\/payment-intent\/pi_\w+$/.test(r.url()))
  await buyer.getByRole('button', { name: 'Pay $12.50' }).click()
  const asked = await serverAsked
  const status = (await asked.json()) as { id: string; status: string }
  expect(status.status).toBe('requires_payment_method')
  await expect(buyer.getByText('Payment error', { exact: true })).toBeVisible()
  await expect(buyer.getByText('Payment successful!')).toHaveCount(0)
  await expect(buyer).toHaveURL(/\/payment\?/)
  const confirmed = (await buyer.evaluate('window.__stripeConfirmed')) as { returnUrl: string; redirect: string }
  expect(confirmed).toMatchObject({ returnUrl: `${new URL(buyer.url()).origin}/payment-success`, redirect: 'if_required' })

  // Stripe's redirect road lands on /payment-success, which shows the status the server read from Stripe.
  const id = status.id
  await buyer.goto(`/payment-success?payment_intent=${id}&redirect_status=succeeded`)
  await expect(buyer.getByTestId('payment-result')).toHaveAttribute('data-status', status.status)
  await expect(buyer.getByTestId('payment-status')).toHaveText(status.status)
  await expect(buyer.getByRole('button', { name: 'Go Back' })).toBeVisible()
  await expect(buyer.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/')
  await buyerContext.close()

  // The seller's card counts the code's payments (none confirmed by a webhook here).
  await page.goto('/dashboard')
  await expect(page.getByTestId('payment-stats').first()).toHaveText('0 payments · $0.00')
})

test('a checkout link without a product id, or with an unknown one, says so', async ({ page }) => {
  await serveStripeStandIn(page)
  await page.goto('/payment')
  await expect(page.getByRole('heading', { name: 'Product ID is required' })).toBeVisible()
  await page.goto('/payment?id=99999999')
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible()
})

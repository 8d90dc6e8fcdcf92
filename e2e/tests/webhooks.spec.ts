import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 24: an owner adds a webhook endpoint on the Webhooks page (its
// secret shown once), sends it a test event, and sees the delivery
// succeed; the receiver, a tiny HTTP server here, checks the Standard
// Webhooks signature with its own HMAC.

test.describe.configure({ timeout: 120_000 })
test.use({ actionTimeout: 20_000 })
expect.configure({ timeout: 20_000 })

type Received = { headers: IncomingHttpHeaders; body: string }

let receiver: Server
const received: Received[] = []

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
})

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
})

/** The Standard Webhooks check, written here: HMAC-SHA256 of "{id}.{timestamp}.{body}" with the secret's decoded bytes. */
function signatureValid(secret: string, r: Received) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const id = String(r.headers['webhook-id'])
  const timestamp = String(r.headers['webhook-timestamp'])
  const want = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest()
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const got = Buffer.from(sig.replace(/^v1,/, ''), 'base64')
      return sig.startsWith('v1,') && got.length === want.length && timingSafeEqual(got, want)
    })
}

test('an owner adds an endpoint, sends a test, and sees the signed delivery succeed', async ({ page }) => {
  await signUp(page, uniqueEmail('hooks'))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/squarely`

  await page.goto('/dashboard')
  await page.getByRole('link', { name: 'Webhooks' }).first().click()
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
  await expect(page.getByText('No endpoints yet.')).toBeVisible()

  await page.getByLabel('Endpoint URL').fill(url)
  await page.getByLabel('Description (optional)').fill('Spreadsheet sync')
  await page.getByRole('checkbox', { name: /scan\.created/ }).check()
  await page.getByRole('button', { name: 'Add endpoint' }).click()

  const secret = (await page.getByTestId('webhook-secret').textContent()) ?? ''
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
  expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24)
  const endpoint = page.getByRole('region', { name: `Endpoint ${url}` })
  await expect(endpoint.getByText('Enabled')).toBeVisible()
  await expect(endpoint.getByText('scan.created')).toBeVisible()
  await expect(endpoint.getByText('Nothing sent yet.')).toBeVisible()

  await endpoint.getByRole('button', { name: 'Send test' }).click()
  const delivery = endpoint.getByTestId('delivery').first()
  await expect(delivery.getByText('succeeded')).toBeVisible()
  await expect(delivery.getByText('webhook.test')).toBeVisible()
  await expect(delivery).toContainText('1 attempt · last answer HTTP 204')

  expect(received).toHaveLength(1)
  const [hit] = received
  expect(signatureValid(secret, hit)).toBe(true)
  expect(signatureValid(`whsec_${Buffer.alloc(32).toString('base64')}`, hit)).toBe(false)
  const body = JSON.parse(hit.body) as { type: string; timestamp: string; data: { message: string } }
  expect(body.type).toBe('webhook.test')
  expect(body.data.message).toContain('test event')
  expect(hit.headers['content-type']).toBe('application/json')
  await expect(delivery).toContainText(String(hit.headers['webhook-id']))

  // Sent again from the page (it succeeded): the same event id arrives again.
  await delivery.getByRole('button', { name: 'Send again' }).click()
  await expect.poll(() => received.length).toBe(2)
  expect(received[1].headers['webhook-id']).toBe(hit.headers['webhook-id'])
  expect(signatureValid(secret, received[1])).toBe(true)

  // Disabled, it says so.
  await endpoint.getByRole('button', { name: 'Disable' }).click()
  await expect(endpoint.getByText('Disabled', { exact: true })).toBeVisible()
})

// On a phone, the one-time secrets (an endpoint's signing secret, a new
// API key) fit the screen with their Copy button: the long secret on one
// line widened the whole page to 528 px and pushed Copy off screen.
test('on a phone the signing secret and a new API key fit the screen with their Copy button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signUp(page, uniqueEmail('hooks-phone'))
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

  await page.goto('/webhooks')
  await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/a-rather-long-path/for-a-phone-screen`)
  await page.getByRole('checkbox', { name: /scan\.created/ }).check()
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByTestId('webhook-secret')).toBeVisible()
  expect(await overflow()).toBeLessThanOrEqual(0)
  await page.getByTestId('webhook-secret').scrollIntoViewIfNeeded()
  await expect(page.getByRole('alert').getByRole('button', { name: 'Copy' })).toBeInViewport({ ratio: 1 })

  await page.goto('/workspace/api-keys')
  await page.getByLabel('Key name').fill('Zapier integration')
  await page.getByRole('button', { name: 'Create key' }).click()
  await expect(page.getByTestId('new-api-key')).toBeVisible()
  expect(await overflow()).toBeLessThanOrEqual(0)
  await page.getByTestId('new-api-key').scrollIntoViewIfNeeded()
  await expect(page.getByRole('alert').getByRole('button', { name: 'Copy' })).toBeInViewport({ ratio: 1 })
})

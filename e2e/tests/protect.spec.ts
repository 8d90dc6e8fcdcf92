import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 10: a dynamic code protected from the dashboard asks for its
// password when scanned, redirects on the right one, and counts one scan.

// A phone's browser: headless Chromium's own user agent counts as a bot.
const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

// The destination is our own app's FAQ page, so the redirect lands on a
// page that exists without leaving the test server.
async function dynamic(page: Page, name: string, destination: string) {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; shortCode: string }
}

async function setPassword(page: Page, name: string, password: string) {
  const card = page.getByTestId('qr-card').filter({ hasText: name })
  await card.getByRole('button', { name: 'Password' }).click()
  const dialog = page.getByRole('dialog', { name: 'Password' })
  await dialog.getByLabel('Password', { exact: true }).fill(password)
  await dialog.getByRole('button', { name: 'Save Password' }).click()
  await expect(page.getByText('Password set', { exact: true })).toBeVisible()
  await expect(card.getByText('Protected')).toBeVisible()
}

test('a protected code asks for its password, redirects on the right one and counts one scan', async ({ page, browser, baseURL }) => {
  await signUp(page, uniqueEmail('protect'))
  const destination = `${baseURL}/faq`
  const code = await dynamic(page, 'Staff menu', destination)
  await page.goto('/dashboard')
  await setPassword(page, 'Staff menu', 'open-sesame')

  // A stranger's phone: a fresh context with no session.
  const phone = await browser.newContext({ userAgent: phoneUA })
  const scan = await phone.newPage()
  await scan.goto(`/d/${code.shortCode}`)
  await expect(scan.getByRole('heading', { name: 'Password required' })).toBeVisible()
  expect(scan.url()).toContain(`/d/${code.shortCode}`)

  await scan.getByLabel('Password').fill('wrong-guess')
  await scan.getByRole('button', { name: 'Continue' }).click()
  await expect(scan.getByRole('alert')).toHaveText('Wrong password. Please try again.')

  await scan.getByLabel('Password').fill('open-sesame')
  await scan.getByRole('button', { name: 'Continue' }).click()
  await expect(scan).toHaveURL(destination)
  await phone.close()

  // One scan: the page was shown once; the guess and the unlock are not scans.
  await expect
    .poll(
      async () => {
        const a = (await (await page.request.get('/api/analytics?period=all')).json()) as { totalScans: number; humanScans: number }
        return [a.totalScans, a.humanScans]
      },
      { timeout: 10_000 },
    )
    .toEqual([1, 1])
  await page.reload()
  const card = page.getByTestId('qr-card').filter({ hasText: 'Staff menu' })
  await expect(card.getByTestId('scan-count')).toHaveText('1')
  await expect(card).toContainText('1 scan')
})

test('the dashboard removes a code password', async ({ page, browser }) => {
  await signUp(page, uniqueEmail('protect'))
  const code = await dynamic(page, 'Door sign', 'https://example.com/door')
  await page.goto('/dashboard')
  await setPassword(page, 'Door sign', 'open-sesame')

  const card = page.getByTestId('qr-card').filter({ hasText: 'Door sign' })
  await card.getByRole('button', { name: 'Password' }).click()
  await page.getByRole('dialog', { name: 'Password' }).getByRole('button', { name: 'Remove Password' }).click()
  await expect(page.getByText('Password removed', { exact: true })).toBeVisible()
  await expect(card.getByText('Protected')).toHaveCount(0)

  // The scan redirects at once, without a page.
  const phone = await browser.newContext()
  const res = await phone.request.get(`/d/${code.shortCode}`, { maxRedirects: 0 })
  expect(res.status()).toBe(302)
  expect(res.headers()['location']).toBe('https://example.com/door')
  await phone.close()
})

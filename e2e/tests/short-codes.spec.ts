import { execFileSync } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 34 item 1: a member gives a dynamic code a short code of their
// own in the generator, sees as they type whether it may be had, and the
// saved code's PNG scans to it; another workspace then finds it taken.

test.describe.configure({ timeout: 120_000 })
expect.configure({ timeout: 20_000 })

test('a chosen short code: checked as typed, saved, printed, redirecting, then taken for others', async ({ page, browser }, testInfo) => {
  await signUp(page, uniqueEmail('short-code'))
  await page.goto('/dashboard?create=true')
  const generator = page.locator('form', { has: page.getByRole('heading', { name: 'Generate Your QR Code' }) })
  const url = `https://example.com/spring/${Date.now()}`
  await generator.getByLabel('Website URL').fill(url)
  await generator.getByRole('switch', { name: 'Scan tracking' }).click()

  const field = generator.getByLabel('Short code (optional)')
  const status = generator.getByTestId('short-code-status')
  await field.fill('ab')
  await expect(status).toHaveText('Use 3 to 64 letters, digits, - or _')
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await field.fill('Dashboard')
  await expect(status).toHaveText('This short code is a word Squarely uses for its own pages; choose another')
  const code = `spring-${Date.now()}`
  await field.fill(code)
  await expect(status).toHaveText('Available')

  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('Dynamic QR Code saved', { exact: true })).toBeVisible()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download PNG' }).click()
  const file = testInfo.outputPath('chosen.png')
  await (await downloading).saveAs(file)
  const short = execFileSync('zbarimg', ['--raw', '-q', file]).toString().trim()
  expect(new URL(short).pathname).toBe(`/d/${code}`)
  const redirect = await page.request.get(`/d/${code}`, { maxRedirects: 0 })
  expect(redirect.status()).toBe(302)
  expect(redirect.headers().location).toBe(url)

  // Another account, in its own workspace: the same code, in any case, is taken.
  const other = await browser.newContext()
  const second = await other.newPage()
  await signUp(second, uniqueEmail('short-code-2'))
  const answer = await second.request.get(`/api/short-codes/availability?shortCode=${code.toUpperCase()}`)
  expect(answer.status()).toBe(200)
  expect(await answer.json()).toMatchObject({ available: false, code: 'taken' })
  await other.close()
})

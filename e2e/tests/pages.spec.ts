import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Hosted pages (issue 35): a page made from the generator's type list is
// opened by the printed code itself (200, no second redirect), its
// buttons are counted, and it works without JavaScript.

// Headless Chromium names itself in its user agent and is counted as a bot;
// the phone that scans the code is a real iPhone's Safari.
const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

/** Decodes a PNG with zbar, a decoder we did not write. */
function decodeQR(png: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-pages-'))
  try {
    const file = join(dir, 'code.png')
    writeFileSync(file, png)
    return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A phone without JavaScript: what the page does, it does as HTML. */
async function phone(browser: Browser) {
  return browser.newContext({ userAgent: phoneUA, javaScriptEnabled: false, viewport: { width: 390, height: 844 } })
}

test('a vCard Plus made from the generator: its downloaded code opens the page, which saves the contact', async ({ page, browser, baseURL }) => {
  await signUp(page, uniqueEmail('vcard-page'))
  await page.goto('/dashboard?create=true')
  await page.getByRole('combobox', { name: 'QR code type' }).click()
  await page.getByRole('option', { name: /vCard Plus/ }).click()
  await expect(page).toHaveURL(/\/pages\/new\/vcard$/)

  await page.getByLabel('Page title').fill('Ada at the door')
  await page.getByLabel('First name').fill('Ada')
  await page.getByLabel('Last name').fill('Lovelace')
  await page.getByLabel('Number (phone 1)').fill('+44 20 7946 0000')
  await page.getByLabel('Address (e-mail 1)').fill('ada@example.com')
  // The preview follows the typing.
  await expect(page.getByRole('figure', { name: 'Phone preview' })).toBeVisible()
  await page.getByRole('button', { name: 'Save and create QR code' }).click()
  await expect(page.getByText('Your vCard Plus is live')).toBeVisible()

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()])
  const url = decodeQR(readFileSync(await download.path()))
  expect(url).toMatch(new RegExp(`^${baseURL}/d/[0-9A-Za-z]+$`))

  // The scan answers the page itself.
  const context = await phone(browser)
  const scan = await context.newPage()
  const response = await scan.goto(url)
  expect(response?.status()).toBe(200)
  expect(scan.url()).toBe(url)
  await expect(scan.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible()
  expect(response?.headers()['content-security-policy']).not.toContain('script-src')

  const [card] = await Promise.all([scan.waitForEvent('download'), scan.getByRole('link', { name: 'Save contact' }).click()])
  const vcf = readFileSync(await card.path(), 'utf8')
  expect(vcf).toContain('BEGIN:VCARD')
  expect(vcf).toContain('VERSION:4.0')
  expect(vcf).toContain('FN:Ada Lovelace')
  expect(vcf).toContain('EMAIL;TYPE=work:ada@example.com')
  await context.close()
})

test('a link list: following a button is counted', async ({ page, browser, baseURL }) => {
  await signUp(page, uniqueEmail('links-page'))
  await page.goto('/pages/new/links')
  await page.getByLabel('Page title').fill('My links')
  await page.getByLabel('Heading').fill('Find me here')
  await page.getByLabel('Label (link 1)').fill('About us')
  await page.getByLabel(/^URL .*\(link 1\)$/).fill(`${baseURL}/about`)
  await page.getByRole('button', { name: 'Save and create QR code' }).click()
  await expect(page.getByText('Your Link list is live')).toBeVisible()
  const shortUrl = (await page.getByRole('link', { name: 'Open the page' }).getAttribute('href')) ?? ''

  const context = await phone(browser)
  const scan = await context.newPage()
  expect((await scan.goto(shortUrl))?.status()).toBe(200)
  await scan.getByRole('link', { name: 'About us' }).click()
  await expect(scan).toHaveURL(`${baseURL}/about`)
  await context.close()

  // The click reaches the page's analytics.
  const pages = (await (await page.request.get('/api/pages')).json()) as { id: number; title: string }[]
  const id = pages.find((p) => p.title === 'My links')?.id
  await expect
    .poll(async () => {
      const a = (await (await page.request.get(`/api/pages/${id}/analytics`)).json()) as { clicks: { clicks: number }[]; views: number }
      return [a.views, a.clicks[0]?.clicks]
    })
    .toEqual([1, 1])
  await page.goto('/pages')
  await page.getByRole('button', { name: 'Analytics of My links' }).click()
  const stats = page.getByRole('region', { name: 'Page analytics (last 30 days)' })
  await expect(stats.getByRole('row', { name: 'About us 1' })).toBeVisible()
})

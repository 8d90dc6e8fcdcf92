import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Headless Chromium names itself in its user agent and is counted as a bot;
// the "phone" that scans the printed code is a real iPhone's Safari.
const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

interface DynamicRecord {
  id: number
  shortCode: string
  shortUrl: string
}

/** Decodes a PNG with zbar, a decoder we did not write. */
function decodeQR(png: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-qr-'))
  try {
    const file = join(dir, 'code.png')
    writeFileSync(file, png)
    return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Opens a short link the way a phone that scanned the code would; answers the final page. */
async function scan(browser: Browser, url: string) {
  const context = await browser.newContext({ userAgent: phoneUA })
  const page = await context.newPage()
  const response = await page.goto(url)
  const result = { status: response?.status(), url: page.url(), text: await page.locator('body').innerText() }
  await context.close()
  return result
}

function card(page: Page, name: string): Locator {
  return page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

test('a dynamic code: created, scanned, counted, edited, paused, resumed and deleted', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000) // eight scans, each in a browser context of its own
  await signUp(page, uniqueEmail('dash'))
  const about = `${baseURL}/about`
  const faq = `${baseURL}/faq`

  // Create it in the dashboard's create view, with the generator in Dynamic mode.
  await page.goto('/dashboard?create=true')
  await expect(page).toHaveTitle('Create QR Code - Dashboard')
  await page.getByLabel('Website URL').fill(about)
  await page.getByRole('radiogroup', { name: 'Code mode' }).getByRole('radio', { name: 'Dynamic' }).click()
  await page.getByLabel('Name (optional)').fill('E2E table card')
  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('Dynamic QR Code saved', { exact: true })).toBeVisible()

  const listed = await page.request.get('/api/dynamic-qrcodes')
  expect(listed.status()).toBe(200)
  const codes = (await listed.json()) as (DynamicRecord & { name: string; destination: string })[]
  expect(codes).toHaveLength(1)
  const code = codes[0]
  expect(code.name).toBe('E2E table card')
  expect(code.destination).toBe(about)
  expect(code.shortCode).toMatch(/^[0-9A-Za-z]{7,20}$/)
  const shortUrl = `${baseURL}/d/${code.shortCode}`
  expect(code.shortUrl).toBe(shortUrl)

  // The printed image decodes to the short link.
  const png = await page.request.get(`/api/dynamic-qrcodes/${code.id}/image?format=png`)
  expect(png.status()).toBe(200)
  expect(decodeQR(await png.body())).toBe(shortUrl)

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Active Codes' }).click()
  await expect(page.getByRole('heading', { name: 'My QR Codes', level: 1 })).toBeVisible()
  const item = card(page, 'E2E table card')
  await expect(item.getByText('Dynamic', { exact: true })).toBeVisible()
  await expect(item.getByTestId('scan-count')).toHaveText('0')

  // A scan lands on the destination and is counted (the recorder flushes about every second).
  const first = await scan(browser, shortUrl)
  expect(first.url).toBe(about)
  await expect(async () => {
    await page.reload()
    await expect(item.getByTestId('scan-count')).toHaveText('1', { timeout: 1000 })
  }).toPass({ timeout: 15_000 })

  // Edit the destination from the card; the next scan follows it.
  await item.getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })
  await expect(edit).toContainText('The QR code image stays the same')
  await edit.getByLabel('Destination URL').fill('javascript:alert(1)')
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(edit.getByText('Please enter a valid URL')).toBeVisible()
  await edit.getByLabel('Destination URL').fill(faq)
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(edit).toBeHidden()
  await expect(item).toContainText(faq)
  expect((await scan(browser, shortUrl)).url).toBe(faq)

  // Pause: the card moves to the paused view and the link shows the paused page.
  await item.getByRole('button', { name: 'Pause' }).click()
  await expect(item).toHaveCount(0)
  const paused = await scan(browser, shortUrl)
  expect(paused.status).toBe(410)
  expect(paused.text).toContain('This QR code is paused')

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Paused Codes' }).click()
  await expect(page.getByText('1 paused', { exact: true })).toBeVisible()
  await expect(item.getByRole('button', { name: 'Download' })).toHaveCount(0)
  await item.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByText('No paused dynamic QR codes')).toBeVisible()
  await expect(page.getByText('0 paused', { exact: true })).toBeVisible()
  expect((await scan(browser, shortUrl)).url).toBe(faq)

  // Back to the active list; delete removes the card and the link.
  await page.getByRole('button', { name: 'Back to Active' }).click()
  await expect(item).toBeVisible()
  await item.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete QR Code' })
  await expect(confirm).toContainText('This action cannot be undone')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await expect(item).toHaveCount(0)
  await expect(page.getByText('No QR codes yet')).toBeVisible()
  expect((await scan(browser, shortUrl)).status).toBe(404)
  await page.reload()
  await expect(page.getByText('No QR codes yet')).toBeVisible()
})

test('rename from the card and the analytics dialog', async ({ page, browser, baseURL }) => {
  await signUp(page, uniqueEmail('dash'))
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination: `${baseURL}/about`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/about` }), name: 'Flyer' },
  })
  expect(created.status()).toBe(201)
  const code = (await created.json()) as DynamicRecord
  await scan(browser, code.shortUrl)

  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Rename Flyer' }).click()
  const input = page.getByRole('textbox', { name: 'QR code name' })
  await input.fill('  Spring flyer  ')
  await input.press('Enter')
  await expect(page.getByRole('heading', { name: 'Spring flyer', exact: true })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Spring flyer', exact: true })).toBeVisible()

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Analytics' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analytics Dashboard' })
  await expect(dialog.getByText('Total QR Codes')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/dynamic-qrcodes/${code.id}/scans.csv`)
  const csv = await page.request.get(`/api/dynamic-qrcodes/${code.id}/scans.csv`)
  expect(csv.status()).toBe(200)
  expect((await csv.text()).split('\n')[0]).toContain('scanned_at')
})

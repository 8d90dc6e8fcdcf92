import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

test('scans through a trusted proxy appear by country in the open dialog; ranges, CSV and PDF', async ({ page, playwright, baseURL }) => {
  await signUp(page, uniqueEmail('analytics'))
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination: `${baseURL}/about`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/about` }), name: 'Geo poster' },
  })
  expect(created.status()).toBe(201)
  const code = (await created.json()) as { id: number; shortUrl: string }

  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Analytics' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analytics Dashboard' })
  await expect(dialog.getByText('No scans in this range.')).toBeVisible()

  // Two phones, one in the US and one in Germany, as the proxy names them.
  const phone = await playwright.request.newContext({ userAgent: phoneUA })
  for (const addr of ['8.8.8.8', '2a00:1450:4001::1', '8.8.4.4']) {
    const r = await phone.get(code.shortUrl, { maxRedirects: 0, headers: { 'X-Forwarded-For': addr } })
    expect(r.status()).toBe(302)
  }
  await phone.dispose()
  const countries = dialog.getByRole('table', { name: 'Scans by country' })
  const started = Date.now()
  await expect(countries.getByRole('row', { name: 'United States 2' })).toBeVisible({ timeout: 5_000 })
  await expect(countries.getByRole('row', { name: 'Germany 1' })).toBeVisible()
  expect(Date.now() - started).toBeLessThan(5_000)
  await expect(dialog.getByText(/IP2Location LITE data/)).toBeVisible()
  // The world map beside the table shades the same two countries, named with their scans; others stay plain.
  const map = dialog.getByRole('group', { name: 'World map of scans by country' })
  await expect(map.getByRole('img', { name: 'United States: 2 scans' })).toBeVisible()
  await expect(map.getByRole('img', { name: 'Germany: 1 scan' })).toBeVisible()
  await expect(map.getByRole('img')).toHaveCount(2)
  await expect(map.locator('title', { hasText: 'Germany: 1 scan' })).toHaveCount(1)
  await map.getByRole('img', { name: 'Germany: 1 scan' }).hover()
  await expect(map.locator('xpath=preceding-sibling::p[1]')).toHaveText('Germany: 1 scan')
  await expect(dialog.getByText('Human scans').locator('xpath=following-sibling::dd[1]')).toHaveText('3')

  // A click on a country shows its scans alone; the chip shows them all again.
  await countries.getByRole('button', { name: 'Show only scans from Germany' }).click()
  await expect(dialog.getByText('Human scans').locator('xpath=following-sibling::dd[1]')).toHaveText('1')
  await expect(countries.getByRole('row')).toHaveCount(1)
  await expect(map.getByRole('img')).toHaveCount(1)
  await dialog.getByRole('button', { name: 'Only Germany: show every country' }).click()
  await expect(dialog.getByText('Human scans').locator('xpath=following-sibling::dd[1]')).toHaveText('3')
  await expect(countries.getByRole('row', { name: 'United States 2' })).toBeVisible()

  // A custom range before the scans shows none of them.
  await dialog.getByRole('button', { name: 'Custom' }).click()
  await dialog.getByLabel('From').fill('2025-01-01')
  await dialog.getByLabel('To').fill('2025-01-31')
  await expect(dialog.getByText('No scans in this range.')).toBeVisible()
  await expect(dialog.getByText('Human scans').locator('xpath=following-sibling::dd[1]')).toHaveText('0')
  await dialog.getByRole('button', { name: 'All time' }).click()
  await expect(countries.getByRole('row', { name: 'United States 2' })).toBeVisible()

  // The CSV downloads and carries the countries, never the addresses.
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download CSV' }).click()])
  const csv = readFileSync(await download.path(), 'utf8')
  const lines = csv.trim().split('\n')
  expect(lines[0]).toBe('scanned_at,device_type,os,browser,referrer,visitor,is_bot,country')
  expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(['US', 'DE', 'US'])
  expect(csv).not.toContain('8.8.8.8')

  // So does each breakdown of the chosen range.
  const [byCountry] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download countries CSV' }).click()])
  expect(readFileSync(await byCountry.path(), 'utf8')).toBe('country,scans\nUS,2\nDE,1\n')

  // And the PDF report of the range opens in poppler with the same figures.
  const [pdf] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'PDF report' }).click()])
  expect(pdf.suggestedFilename()).toBe('scan-report.pdf')
  const text = execFileSync('pdftotext', ['-layout', (await pdf.path()) as string, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
  expect(text).toContain('Scan report: Geo poster')
  expect(text).toContain('Scans: 3')
  expect(text).toMatch(/Countries US 2 \(66%\) DE 1 \(33%\)/)

  // The whole account's view (GET /api/analytics) is in the same dialog, with the same range, comparison, map and reports:
  // a second code scanned from the UK shows there beside the first code's scans.
  const second = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination: `${baseURL}/faq`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/faq` }), name: 'Second poster' },
  })
  expect(second.status()).toBe(201)
  const uk = await playwright.request.newContext({ userAgent: phoneUA })
  expect((await uk.get(((await second.json()) as { shortUrl: string }).shortUrl, { maxRedirects: 0, headers: { 'X-Forwarded-For': '81.2.69.142' } })).status()).toBe(302)
  await uk.dispose()
  await dialog.getByLabel('QR code').selectOption({ label: 'All dynamic codes' })
  await dialog.getByRole('button', { name: '7 days' }).click()
  await expect(map.getByRole('img', { name: 'United Kingdom: 1 scan' })).toBeVisible({ timeout: 5_000 })
  await expect(map.getByRole('img', { name: 'United States: 2 scans' })).toBeVisible()
  await expect(map.getByRole('img')).toHaveCount(3)
  await expect(dialog.getByText('Human scans').locator('xpath=following-sibling::dd[1]')).toHaveText('4')
  await expect(dialog.getByText('Up from 0 in the previous period')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'PDF report' })).toHaveAttribute('href', /^\/api\/analytics\/report\.pdf\?from=/)
  const [accountCsv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download countries CSV' }).click()])
  const [header, ...rows] = readFileSync(await accountCsv.path(), 'utf8').trim().split('\n')
  expect(header).toBe('country,scans')
  expect(rows[0]).toBe('US,2')
  expect(rows.slice(1).sort()).toEqual(['DE,1', 'GB,1'])
})

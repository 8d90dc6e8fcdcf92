import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { violations } from '../support/axe'

// Bringing links from another shortener: a CSV uploaded on the Import
// page is checked in a dry run, imported with its short codes, and then
// every old short URL is compared with Squarely's on a local stand-in for
// the old shortener (a plain-HTTP server on 127.0.0.1, which the run's
// SQUARELY_WEBHOOK_ALLOW_HTTP/_PRIVATE let the check reach).

test.describe.configure({ timeout: 120_000 })

let oldHost: Server
let oldLinks: Record<string, string> = {}

test.beforeAll(async () => {
  // The old shortener: /{code} answers 301 to its destination.
  oldHost = createServer((req, res) => {
    const dest = oldLinks[(req.url ?? '/').slice(1)]
    res.writeHead(dest ? 301 : 404, dest ? { Location: dest } : {}).end()
  })
  await new Promise<void>((resolve) => oldHost.listen(0, '127.0.0.1', resolve))
})

test.afterAll(async () => {
  await new Promise((resolve) => oldHost.close(resolve))
})

test('a CSV import: dry run, import with progress, switch check against the old host, codes on the dashboard', async ({ page }) => {
  await signUp(page, uniqueEmail('imports'))
  const run = Date.now()
  const menu = `menu-${run}`
  const wine = `wine-${run}`
  const hours = `hours-${run}`
  oldLinks = {
    [menu]: 'https://example.com/menu',
    [wine]: 'https://example.com/wine',
    [hours]: 'https://example.com/hours', // changed on the way: the check must find it
  }
  const csv = [
    'shortCode,destination,name,tags',
    `${menu},https://example.com/menu,Menu ${run},food`,
    `${wine},https://example.com/wine,Wine ${run},`,
    `${hours},https://example.com/hours-2026,Hours ${run},`,
    'login,https://example.com/login,Reserved,',
  ].join('\n')

  await page.goto('/workspace/imports')
  await page.getByLabel('CSV file').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const old = `http://127.0.0.1:${(oldHost.address() as AddressInfo).port}`
  await page.getByLabel('Old short host').fill(old)
  await page.getByRole('button', { name: 'Dry run' }).click()

  await expect(page.getByTestId('dry-run-summary')).toHaveText('4 links: 3 to create, 1 conflicts, 0 already there.')
  const dry = page.getByRole('region', { name: 'Dry run' })
  await expect(dry.getByRole('row', { name: new RegExp(`${menu} .*Create`) })).toBeVisible()
  await expect(dry.getByRole('row', { name: /login .*Conflict/ })).toBeVisible()
  expect(await violations(page, 'main')).toEqual([])

  await page.getByRole('button', { name: 'Import 3 links' }).click()
  await expect(page.getByTestId('import-progress')).toHaveText('100% · 3 created, 0 already there, 1 conflicts, 0 failed')
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', '100')

  await page.getByRole('button', { name: 'Check every short URL' }).click()
  await expect(page.getByTestId('switch-summary')).toHaveText('2 of 3 answer the same on Squarely.')
  await expect(page.getByText(`${hours}: old 301 https://example.com/hours · new 302 https://example.com/hours-2026`)).toBeVisible()
  await expect(page.getByTestId('ready-to-switch')).toHaveCount(0)

  // The old host fixed, a second check finds every link the same.
  oldLinks[hours] = 'https://example.com/hours-2026'
  await page.getByRole('button', { name: 'Check every short URL' }).click()
  await expect(page.getByTestId('ready-to-switch')).toContainText(`Ready to switch: point ${old.slice('http://'.length)} at Squarely`)

  const redirect = await page.request.get(`/d/${menu}`, { maxRedirects: 0 })
  expect(redirect.status()).toBe(302)
  expect(redirect.headers().location).toBe('https://example.com/menu')

  await page.goto('/dashboard')
  for (const name of [`Menu ${run}`, `Wine ${run}`, `Hours ${run}`]) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible()
  }
})

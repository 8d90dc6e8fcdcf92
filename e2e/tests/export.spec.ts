import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'

// The exit guarantee (issue 25): Account Settings downloads the workspace's
// data, redirects included, as a ZIP from the real server.
test.describe.configure({ timeout: 120_000 })
expect.configure({ timeout: 20_000 })

test('Download my data saves the workspace ZIP with codes, scans and redirects', async ({ page }) => {
  const email = `export-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  await page.goto('/auth?mode=register')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('e2e-secret-1')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()

  await page.goto('/account-settings')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()])
  expect(download.suggestedFilename()).toMatch(/^squarely-export-\d{4}-\d{2}-\d{2}\.zip$/)
  const zip = await readFile(await download.path())
  // A ZIP's entry names are stored uncompressed in its headers.
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK')
  for (const name of ['codes.json', 'scans.csv', 'redirects/nginx.conf', 'redirects/Caddyfile', 'redirects/redirects.csv']) {
    expect(zip.includes(Buffer.from(name)), name).toBe(true)
  }
})

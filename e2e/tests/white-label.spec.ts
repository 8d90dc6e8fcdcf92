import { expect, test, type Page } from '@playwright/test'
import { grantAdmin, signUp, uniqueEmail } from '../support/accounts'

// A client's own addresses point at this machine only for this file's
// browser: Chromium's resolver maps them to the loopback (the port stays).
const customDomain = 'brand.acme.test'
const resolverRules = `MAP ${customDomain} 127.0.0.1, MAP *.localhost 127.0.0.1`

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=${resolverRules}`,
    ],
  },
})

/** A fresh account signed in in this page's context, made an admin the way an operator does. */
async function signUpAdmin(page: Page) {
  const email = uniqueEmail('wl')
  await signUp(page, email)
  grantAdmin(email)
}

/** The theme's primary colour on the page, as the CSS variable the theme is built from. */
function primaryColour(page: Page) {
  return page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim().toUpperCase())
}

test("an admin creates a client; the client's domain and subdomain show its brand; the key is shown once and copied", async ({ page, browser, baseURL, context }) => {
  test.setTimeout(120_000) // several pages on three hosts, on a shared machine
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signUpAdmin(page)
  const base = new URL(baseURL as string)

  await page.goto('/white-label-admin')
  await expect(page).toHaveTitle('White Label Clients - Squarely')
  // The default client has no delete button.
  await expect(page.getByTestId('client-1')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Delete Squarely' })).toHaveCount(0)

  await page.getByRole('button', { name: 'Add Client' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create New Client' })
  await dialog.getByRole('button', { name: 'Create Client' }).click()
  await expect(dialog.getByText('Name is required')).toBeVisible()
  await dialog.getByLabel('Name').fill('Acme')
  await dialog.getByLabel('Subdomain').fill('acme')
  await dialog.getByLabel('Custom domain').fill(customDomain)
  await dialog.getByLabel('Primary colour').fill('#10B981')
  await dialog.getByLabel('Secondary colour').fill('#065F46')
  await dialog.getByRole('button', { name: 'Create Client' }).click()
  await expect(page.getByText('Client created successfully', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  const acme = page.locator('[data-testid^="client-"]').filter({ has: page.getByRole('heading', { name: 'Acme' }) })
  await expect(acme).toContainText(customDomain)
  // The key comes with the client (issue 21): masked, shown by the toggle, copied, then masked for good after a reload.
  await expect(acme.getByText('Copy this key now: it will not be shown again.')).toBeVisible()
  const keyText = acme.getByTestId('client-api-key')
  await expect(keyText).toHaveText(/^sq_[0-9A-Za-z]{6}…[0-9A-Za-z]{4}$/)
  const masked = await keyText.innerText()
  await acme.getByRole('button', { name: 'Show API key of Acme' }).click()
  await expect(keyText).toHaveText(/^sq_[0-9A-Za-z]{40}$/)
  const key = await keyText.innerText()
  expect(key.startsWith(masked.slice(0, 9)) && key.endsWith(masked.slice(-4))).toBe(true)
  await acme.getByRole('button', { name: 'Hide API key of Acme' }).click()
  await expect(keyText).toHaveText(masked)
  await acme.getByRole('button', { name: 'Copy API key of Acme' }).click()
  await expect(page.getByText('Copied!', { exact: true })).toBeVisible()
  await expect(page.getByText('API key copied to clipboard', { exact: true })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)

  // The key works against the public API, and its dynamic codes print the client's host.
  const created = await page.request.post('/api/v1/codes', {
    headers: { Authorization: `Bearer ${key}` },
    data: { kind: 'dynamic', qrType: 'url', destination: 'https://example.com/acme' },
  })
  expect(created.status()).toBe(201)
  expect((await created.json()).url).toMatch(new RegExp(`^http://${customDomain.replace(/\./g, '\\.')}/d/`))

  await page.reload()
  await expect(acme.getByTestId('client-api-key')).toHaveText(masked)
  await expect(acme.getByRole('button', { name: 'Show API key of Acme' })).toHaveCount(0)

  // A visitor on the client's custom domain, and on its subdomain of the site's
  // host (a name such as localhost; an IP address has no subdomains).
  const visitor = await browser.newContext()
  const visitorPage = await visitor.newPage()
  const origins = [`http://${customDomain}:${base.port}`]
  if (!/^[\d.]+$/.test(base.hostname)) origins.push(`http://acme.${base.hostname}:${base.port}`)
  for (const origin of origins) {
    await visitorPage.goto(`${origin}/about`)
    await expect(visitorPage).toHaveTitle('Acme - QR Code Generator')
    await expect.poll(() => primaryColour(visitorPage)).toBe('#10B981')
  }
  // The site's own host keeps the default brand.
  await visitorPage.goto(`${baseURL}/about`)
  await expect(visitorPage).not.toHaveTitle('Acme - QR Code Generator')
  // The site's own primary is #2563EB: white text on the default client's #3B82F6 fails WCAG AA contrast.
  expect(await primaryColour(visitorPage)).toBe('#2563EB')
  await visitor.close()
})

test('a signed-in user who is not an admin is not offered Add Client', async ({ page }) => {
  await signUp(page, uniqueEmail('wl-user'))
  await page.goto('/white-label-admin')
  await expect(page.getByText('Admin access required')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add Client' })).toHaveCount(0)
})

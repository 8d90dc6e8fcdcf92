import { expect, test } from '@playwright/test'

// The admin panel (/newsletter) sends visitors to / instead (spec 02 §2): tests/admin.spec.ts.
for (const path of ['/dashboard', '/account-settings', '/bulk-generation', '/white-label-admin', '/workspace/members', '/workspace/brand-kits', '/workspace/activity', '/workspace/domains', '/workspace/api-keys', '/workspace/export']) {
  test(`${path} sends a visitor to /auth`, async ({ page }) => {
    await page.goto(path)
    await expect(page).toHaveURL('/auth')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
    await expect(page).toHaveTitle('Login - Squarely')
  })
}

for (const path of ['/no-such-page', '/no/such/page', '/metrics']) {
  test(`an unknown path (${path}) answers 404 with the app's not-found page`, async ({ page }) => {
    const res = await page.goto(path)
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible()
  })
}

test('paths match case-insensitively', async ({ page }) => {
  await page.goto('/AUTH')
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
})

test('the landing page shows the marketing claims and the generator', async ({ page }) => {
  await page.goto('/')
  for (const claim of ['10M+', '50K+', '99.9%', '24/7']) {
    await expect(page.getByText(claim, { exact: true })).toBeVisible()
  }
  await expect(page.locator('#qr-generator').getByRole('heading', { name: 'Generate Your QR Code' })).toBeVisible()
})

import { expect, test, type Page } from '@playwright/test'
import { violations } from '../support/axe'
import { signUp, uniqueEmail } from '../support/accounts'

const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

test('a share link made from a code’s analytics opens signed out with the figures, and stops when revoked', async ({ page, browser, playwright, baseURL }) => {
  test.setTimeout(120_000) // a signed-out browser beside the owner's, three axe runs and several range changes: 17 s alone, over 60 s on a loaded two-core machine
  await signUp(page, uniqueEmail('share'))
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination: `${baseURL}/about`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/about` }), name: 'Shared poster' },
  })
  expect(created.status()).toBe(201)
  const code = (await created.json()) as { shortUrl: string }
  // Six scans from Germany (shown) and two from the US (under 5: folded into Other), as a trusted proxy names them.
  const phone = await playwright.request.newContext({ userAgent: phoneUA })
  for (const addr of [...Array(6).fill('2a00:1450:4001::1'), '8.8.8.8', '8.8.4.4']) {
    const r = await phone.get(code.shortUrl, { maxRedirects: 0, headers: { 'X-Forwarded-For': addr, Referer: 'https://news.example/story/secret-path' } })
    expect(r.status()).toBe(302)
  }
  await phone.dispose()

  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Analytics' }).click()
  const analytics = page.getByRole('dialog', { name: 'Analytics Dashboard' })
  await expect(analytics.getByRole('table', { name: 'Scans by country' }).getByRole('row', { name: 'Germany 6' })).toBeVisible()

  // The Share dialog, by keyboard: focus the button, open it, fill the form.
  await analytics.getByRole('button', { name: 'Share' }).focus()
  await page.keyboard.press('Enter')
  const share = page.getByRole('dialog', { name: 'Share analytics' })
  await expect(share.getByLabel('What to share')).toHaveValue(/^code:/)
  await expect(share.getByText('No share links yet.')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await share.getByLabel('Link expires').selectOption({ label: 'In 7 days' })
  await share.getByRole('button', { name: 'Create link' }).click()
  const url = share.getByLabel(/Your link/)
  await expect(url).toHaveValue(new RegExp(`^${baseURL}/s/[A-Za-z0-9_-]{43}$`))
  const link = await url.inputValue()
  await expect(share.getByRole('listitem').filter({ hasText: 'Code Shared poster' })).toContainText('expires')
  expect(await violations(page)).toEqual([])

  // Signed out, in a browser of its own: the page with the figures, and no script at all.
  const stranger = await browser.newContext()
  const visitor = await stranger.newPage()
  const scripts: string[] = []
  visitor.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url())
  })
  const response = await visitor.goto(link)
  expect(response?.status()).toBe(200)
  expect((await response?.body())?.length).toBeLessThanOrEqual(60 * 1024)
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Code Shared poster · scan analytics')
  await expect(visitor.getByRole('heading', { name: 'Scans', exact: true }).locator('xpath=following-sibling::p[1]')).toHaveText('8')
  await expect(visitor.getByRole('row', { name: 'Germany 6' })).toBeVisible()
  await expect(visitor.getByRole('row', { name: 'Other 2' })).toBeVisible()
  await expect(visitor.getByRole('row', { name: 'news.example 8' })).toBeVisible()
  await expect(visitor.getByText('United States')).toHaveCount(0)
  await expect(visitor.getByText('secret-path')).toHaveCount(0)
  await expect(visitor.getByRole('img', { name: /Scans per day/ })).toBeVisible()
  expect(scripts).toEqual([])
  expect(await violations(visitor)).toEqual([])
  // The range form: a month before the scans shows none.
  await visitor.getByLabel('From', { exact: true }).fill('2025-01-01')
  await visitor.getByLabel('To', { exact: true }).fill('2025-01-31')
  await visitor.getByRole('button', { name: 'Show' }).click()
  await expect(visitor.getByRole('heading', { name: 'Scans', exact: true }).locator('xpath=following-sibling::p[1]')).toHaveText('0')
  const csv = await visitor.request.get(`${link}.csv?period=all`)
  expect(csv.status()).toBe(200)
  expect(await csv.text()).toContain('\ncountries,Germany,6\n')

  // Revoked from the dialog: the page answers 410.
  page.once('dialog', (d) => void d.accept())
  await share.getByRole('button', { name: /^Revoke the link Code Shared poster/ }).click()
  await expect(share.getByText('No share links yet.')).toBeVisible()
  const gone = await visitor.goto(link)
  expect(gone?.status()).toBe(410)
  await expect(visitor.getByRole('heading', { name: 'This link is no longer available' })).toBeVisible()
  await stranger.close()
})

import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 10: the dashboard finds codes by name and destination (the server's
// search since issue 22), filters by type and kind, and pauses several at once.

async function dynamic(page: Page, name: string, destination: string) {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; shortCode: string }
}

test('search, filter and bulk pause in the dashboard', async ({ page }) => {
  await signUp(page, uniqueEmail('find'))
  await dynamic(page, 'Spring poster', 'https://shop.example/spring-sale')
  await dynamic(page, 'Table tent', 'https://cafe.example/menu')
  await dynamic(page, 'Flyer', 'https://cafe.example/events')
  const saved = await page.request.post('/api/qrcodes', { multipart: { qrType: 'contact', firstName: 'Ada', phoneNumber: '+44 20 7946 0958', name: 'Business card' } })
  expect(saved.status()).toBe(201)

  await page.goto('/dashboard')
  const cards = page.getByTestId('qr-card')
  await expect(cards).toHaveCount(4)
  const search = page.getByRole('searchbox', { name: 'Search codes' })

  await search.fill('shop.example')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText('Spring poster')
  // The server matches names, destinations and tag names (issue 22), in any case.
  await search.fill('SPRING-SALE')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText('Spring poster')
  await search.fill('table')
  await expect(cards).toHaveCount(1)
  await search.fill('')
  await expect(cards).toHaveCount(4)

  await page.getByRole('combobox', { name: 'Type' }).selectOption('contact')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText('Business card')
  await page.getByRole('combobox', { name: 'Type' }).selectOption('')
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('dynamic')
  await expect(cards).toHaveCount(3)
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name')
  await expect(cards.first()).toContainText('Flyer')

  // Pause the two café codes at once.
  await search.fill('cafe.example')
  await expect(cards).toHaveCount(2)
  await page.getByRole('checkbox', { name: 'Select Table tent' }).check()
  await page.getByRole('checkbox', { name: 'Select Flyer' }).check()
  const bar = page.getByRole('toolbar', { name: 'Selected codes' })
  await expect(bar).toContainText('2 selected')
  await bar.getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByText('2 QR codes paused', { exact: true })).toBeVisible()
  await expect(cards).toHaveCount(0)

  const paused = (await (await page.request.get('/api/dynamic-qrcodes/paused')).json()) as { name: string }[]
  expect(paused.map((c) => c.name).sort()).toEqual(['Flyer', 'Table tent'])
  const active = (await (await page.request.get('/api/dynamic-qrcodes')).json()) as { name: string }[]
  expect(active.map((c) => c.name)).toEqual(['Spring poster'])

  // And resume them from the paused view.
  await page.goto('/dashboard?view=paused')
  await expect(cards).toHaveCount(2)
  await page.getByRole('checkbox', { name: 'Select Table tent' }).check()
  await page.getByRole('checkbox', { name: 'Select Flyer' }).check()
  await page.getByRole('toolbar', { name: 'Selected codes' }).getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByText('2 QR codes resumed', { exact: true })).toBeVisible()
  await expect(page.getByText('No paused dynamic QR codes')).toBeVisible()
})

test('a dynamic card copies its short link', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  await signUp(page, uniqueEmail('find'))
  const code = await dynamic(page, 'Copy me', 'https://example.com/copy')
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Copy short link' }).click()
  await expect(page.getByText('Short link copied', { exact: true })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/d/${code.shortCode}`)
})

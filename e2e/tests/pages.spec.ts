import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// The tests are independent (each signs up its own account): the two
// workers share them, so the suite does not end on one worker running
// this whole file alone.
test.describe.configure({ mode: 'parallel' })

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

// A 1×1 PNG.
const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64')

test('every page type is accessible at 390 px, and so is the editor', async ({ page, browser }) => {
  test.setTimeout(120_000)
  await signUp(page, uniqueEmail('axe-pages'))
  const upload = await page.request.post('/api/upload-image', { multipart: { imageFile: { name: 'a.png', mimeType: 'image/png', buffer: pixel } } })
  expect(upload.status()).toBe(201)
  const image = ((await upload.json()) as { imageUrl: string }).imageUrl
  const contents: Record<string, unknown> = {
    vcard: { firstName: 'Ada', lastName: 'Lovelace', photoUrl: image, jobTitle: 'Analyst', company: 'Engines', phones: [{ type: 'cell', number: '+44 20 7946 0000' }], emails: [{ type: 'work', address: 'ada@example.com' }], address: { city: 'London' }, note: 'Hello' },
    links: { title: 'Links', bio: 'Things I make', links: [{ label: 'Blog', url: 'https://blog.example.com' }], socials: [{ network: 'Mastodon', url: 'https://social.example/@ada' }] },
    menu: { title: 'Lunch', items: [{ section: 'Starters', name: 'Soup', description: 'Of the day', price: '6.50', currency: 'EUR', dietary: ['vegan'] }] },
    gallery: { title: 'Work', images: [{ url: image, caption: 'A pixel', alt: 'One white pixel' }] },
    coupon: { headline: '10% off', description: 'Everything', code: 'SAVE10', terms: 'One per visit', validUntil: '2099-12-31' },
    event: { title: 'Launch', start: '2026-03-28T22:00', end: '2026-03-29T04:00', timeZone: 'Europe/Paris', venue: 'Hall', description: 'Party' },
    app: { name: 'Squares', description: 'An app', appStoreUrl: 'https://apps.apple.com/app/id1', googlePlayUrl: 'https://play.google.com/store/apps/details?id=x' },
    business: { name: 'Café', about: 'Coffee', timeZone: 'Europe/Paris', hours: { mon: [{ open: '08:00', close: '18:00' }] }, phone: '+33 1 23 45 67 89', links: [{ label: 'Order', url: 'https://order.example.com' }] },
  }
  // axe runs as a script, which the pages' CSP refuses: the context lets it in.
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } })
  const phonePage = await context.newPage()
  for (const [type, content] of Object.entries(contents)) {
    const res = await page.request.post('/api/pages', { data: { type, title: `A ${type} page`, slug: `axe-${type}-${Date.now()}`, content } })
    expect(res.status(), await res.text()).toBe(201)
    const { url } = (await res.json()) as { url: string }
    const response = await phonePage.goto(url)
    expect(response?.status()).toBe(200)
    const { violations } = await new AxeBuilder({ page: phonePage }).analyze()
    expect(violations.map((v) => `${type}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
  await context.close()

  // The editor: labelled fields, reached by keyboard; the menu's dietary tags and files and a
  // business's several intervals a day too.
  for (const [type, open] of [
    ['menu', () => page.getByRole('button', { name: 'Add file' }).click()],
    [
      'business',
      async () => {
        await page.getByRole('button', { name: 'Add hours for Monday' }).click()
        await page.getByRole('button', { name: 'Add hours for Monday' }).click()
        await expect(page.getByLabel('Monday opens (hours 2)')).toBeVisible()
      },
    ],
    ['vcard', async () => {}],
  ] as const) {
    await page.goto(`/pages/new/${type}`)
    await page.getByLabel('Page title').waitFor()
    await open()
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze()
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${type}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
  await page.getByLabel('Page title').focus()
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Address (optional: /p/…)')).toBeFocused()
})

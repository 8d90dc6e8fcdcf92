import { request as httpRequest } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { expect, test, type Page } from '@playwright/test'

// The tests are independent (each signs up its own account): the two
// workers share them, so the suite does not end on one worker running
// this whole file alone.
test.describe.configure({ mode: 'parallel' })

const publicRoutes = [
  ['/', 'QR codes your customers'],
  ['/faq', 'Frequently Asked Questions'],
  ['/templates', 'QR Code Templates'],
  ['/features', 'Everything you need to make QR codes work'],
  ['/features/analytics', 'QR Code Analytics & Tracking'],
  ['/use-cases', 'QR codes for every industry'],
  ['/about', 'QR codes that look good and always scan'],
  ['/contact', 'Get in touch'],
  ['/blog', 'QR Code Insights'],
  ['/blog/qr-code-error-correction-levels', 'QR Code Error Correction Levels Explained'],
  ['/test', 'Test page'],
  ['/privacy', 'Privacy Policy'],
  ['/terms', 'Terms of Service'],
] as const

/**
 * Collects console errors and failed page scripts while a test runs. A
 * visitor's session check (GET /api/user) answers 401 by design; Chromium
 * logs that as a failed resource, which is no error of the page.
 */
function watchErrors(page: Page) {
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    if (msg.text().includes('status of 401') && msg.location().url.endsWith('/api/user')) return
    errors.push(`${msg.text()} (${msg.location().url})`)
  })
  page.on('pageerror', (err) => errors.push(err.message))
  return errors
}

for (const [path, heading] of publicRoutes) {
  test(`${path} renders without a console error`, async ({ page }) => {
    const errors = watchErrors(page)
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    // The app has taken over: the header's client-side links work.
    await expect(page.getByRole('link', { name: 'Squarely home' })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(errors).toEqual([])
  })
}

test('a post that does not exist answers 404 and shows Post Not Found', async ({ page }) => {
  const response = await page.goto('/blog/no-such-post')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Post Not Found' })).toBeVisible()
})

test('the FAQ opens one question at a time and links to the contact page', async ({ page }) => {
  await page.goto('/faq')
  const items = page.locator('details[name="faq"]')
  await expect(items).toHaveCount(12)
  const first = items.nth(0)
  const second = items.nth(1)
  await first.locator('summary').click()
  await expect(first).toHaveAttribute('open', '')
  await expect(first.getByText('Static QR codes are free')).toBeVisible()
  await second.locator('summary').click()
  await expect(second).toHaveAttribute('open', '')
  await expect(first).not.toHaveAttribute('open')
  await expect(first.getByText('Static QR codes are free')).toBeHidden()
  await page.getByRole('link', { name: 'Contact Support' }).click()
  await expect(page).toHaveURL('/contact')
})

test('a template fills the generator', async ({ page }) => {
  await page.goto('/templates')
  await page.getByRole('button', { name: 'Hospitality' }).click()
  const menu = page.locator('article').filter({ hasText: 'Restaurant Menu' })
  await expect(page.locator('article')).toHaveCount(3)
  // The live preview is our renderer's code for the sample.
  await expect(menu.getByRole('img', { name: 'Sample QR code: Restaurant Menu' })).toBeVisible()
  // WiFi joined the generator (issue 10): its template is usable (tests/wifi.spec.ts uses it).
  const wifi = page.locator('article').filter({ hasText: 'Guest WiFi' })
  await expect(wifi.getByRole('button', { name: 'Use Template' })).toBeEnabled()

  await menu.getByRole('button', { name: 'Use Template' }).click()
  await expect(page).toHaveURL('/?qr=url')
  const generator = page.locator('#qr-generator')
  await expect(generator.getByLabel('Website URL')).toHaveValue('https://example.com/menu')
  await expect(generator.getByText('Template: Restaurant Menu')).toBeVisible()
  await expect(generator.getByRole('img', { name: 'QR code preview' })).toBeVisible()
})

test("a blocked template type says 'Coming Soon' instead of failing", async ({ page }) => {
  await page.goto('/templates')
  await page.getByRole('button', { name: 'Events' }).click()
  const calendar = page.locator('article').filter({ hasText: 'Calendar Event' })
  // Events are blocked in the shared type table (and by the server).
  await expect(calendar.getByText('This type is not available in the generator yet.')).toBeVisible()
  await expect(calendar.getByRole('button', { name: 'Coming Soon' })).toBeDisabled()
})

test('blog search finds a post by tag, filters by category and shows No articles found', async ({ page }) => {
  await page.goto('/blog')
  const search = page.getByRole('searchbox', { name: 'Search articles' })
  // 'phishing' is only a tag of the security post, in no title or excerpt.
  await search.fill('phishing')
  await expect(page.locator('article')).toHaveCount(1)
  await expect(page.getByRole('link', { name: 'Scan Safely: QR Code Security for Businesses', exact: true })).toBeVisible()
  await search.fill('')
  await page.getByRole('button', { name: 'Security' }).click()
  await expect(page.locator('article')).toHaveCount(1)
  await page.getByRole('button', { name: 'All', exact: true }).click()
  await search.fill('xyzzy-nonsense')
  await expect(page.getByText('No articles found')).toBeVisible()
  await expect(page.locator('article')).toHaveCount(0)
})

test('a blog post renders its markdown and copies its link to share', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/blog')
  await page.getByRole('link', { name: 'Read More: QR Code Error Correction Levels Explained' }).click()
  await expect(page).toHaveURL('/blog/qr-code-error-correction-levels')
  await expect(page.getByRole('heading', { level: 2, name: 'The four levels' })).toBeVisible()
  await expect(page.getByRole('row', { name: /Q \(Quartile\).*about 25%/ })).toBeVisible()
  // Headless Chromium on Linux has no share sheet: the link is copied.
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }))
  await page.getByRole('button', { name: 'Share' }).click()
  await expect(page.getByText('Link copied', { exact: true })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url())
})

test("the contact form checks its rules, then resets after 'Message Sent!'", async ({ page }) => {
  await page.goto('/contact')
  const form = page.getByRole('form', { name: 'Contact form' })
  await form.getByRole('button', { name: 'Send Message' }).click()
  for (const message of [
    'Name must be at least 2 characters',
    'Please enter a valid email address',
    'Subject must be at least 5 characters',
    'Message must be at least 10 characters',
  ]) {
    await expect(form.getByText(message)).toBeVisible()
  }
  await form.getByLabel('Name').fill('Ada Lovelace')
  await form.getByLabel('Email').fill(`contact-${Date.now()}@example.com`)
  await form.getByLabel('Inquiry type').selectOption('support')
  await form.getByLabel('Subject').fill('Printing table cards')
  await form.getByLabel('Message').fill('How small can a menu code be on a table card?')
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message Sent!', { exact: true })).toBeVisible()
  await expect(page.getByText("Thank you for contacting us. We'll get back to you within 24 hours.", { exact: true })).toBeVisible()
  await expect(form.getByLabel('Name')).toHaveValue('')
  await expect(form.getByLabel('Subject')).toHaveValue('')
  await expect(form.getByLabel('Message')).toHaveValue('')
  await expect(form.getByLabel('Inquiry type')).toHaveValue('general')
})

test("the footer newsletter signs a visitor up: 'Welcome to the pack!'", async ({ page }) => {
  await page.goto('/about')
  const footer = page.locator('footer')
  await footer.getByLabel('Email address').fill('not-an-email')
  await footer.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page.getByText('Invalid email', { exact: true })).toBeVisible()
  await footer.getByLabel('Email address').fill(`reader-${Date.now()}@example.com`)
  await footer.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page.getByText('Welcome to the pack!', { exact: true })).toBeVisible()
  await expect(footer.getByText('Successfully subscribed!')).toBeVisible()
})

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false })

  test('/faq shows its questions and answers', async ({ page }) => {
    await page.goto('/faq')
    await expect(page).toHaveTitle('FAQ - Squarely')
    await expect(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeVisible()
    const first = page.locator('details[name="faq"]').first()
    await expect(first.getByText('Is Squarely free to use?')).toBeVisible()
    // Native details open without any script.
    await first.locator('summary').click()
    await expect(first.getByText('Static QR codes are free')).toBeVisible()
  })

  test('a blog post shows its text, table and tags', async ({ page }) => {
    await page.goto('/blog/qr-code-print-size-guide')
    await expect(page).toHaveTitle('How Big Should a Printed QR Code Be? - Squarely')
    await expect(page.getByRole('heading', { level: 1, name: 'How Big Should a Printed QR Code Be?' })).toBeVisible()
    await expect(page.getByText('at least 2 x 2 cm')).toBeVisible()
    await expect(page.getByRole('table')).toBeVisible()
    await expect(page.getByText('quiet zone', { exact: true })).toBeVisible()
  })
})

/** The raw bytes of a GET, without any decoding. */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

test('scripts go out as brotli or gzip that decompress to the same bytes', async ({ baseURL }) => {
  const html = (await rawGet(`${baseURL}/`, 'identity')).body.toString()
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
  expect(scripts.length).toBeGreaterThan(0)
  for (const path of scripts) {
    const plain = await rawGet(`${baseURL}${path}`, 'identity')
    const br = await rawGet(`${baseURL}${path}`, 'gzip, deflate, br')
    const gz = await rawGet(`${baseURL}${path}`, 'gzip')
    if (plain.body.length > 1024) {
      expect(br.headers['content-encoding']).toBe('br')
      expect(gz.headers['content-encoding']).toBe('gzip')
      expect(br.headers.vary).toBe('Accept-Encoding')
    }
    const decode = (r: typeof br) =>
      r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body
    expect(decode(br).equals(plain.body)).toBe(true)
    expect(decode(gz).equals(plain.body)).toBe(true)
  }
})

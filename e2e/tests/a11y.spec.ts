import { execFileSync } from 'node:child_process'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

// Issue 21 item 3: WCAG 2.2 AA. axe-core finds no serious or critical
// violation on any public page nor on the signed-in pages, and dialogs,
// the type choice and Generate behave for a keyboard user.

const publicPages = [
  '/',
  '/faq',
  '/templates',
  '/features',
  '/features/analytics',
  '/use-cases',
  '/about',
  '/contact',
  '/blog',
  '/blog/qr-code-error-correction-levels',
  '/subscribe',
  '/privacy',
  '/terms',
  '/docs/api',
  '/auth',
  '/payment-success',
  '/no-such-page',
]

/** The serious and critical WCAG 2.x A/AA violations on the page as it is now, one line per node. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join(' ') ?? ''}`))
}

/** Loads a page and waits for the app to have drawn it (lazy pages, then fonts and data). */
async function open(page: Page, path: string) {
  await page.goto(path)
  await page.locator('main, [role="main"], h1').first().waitFor()
  await page.waitForLoadState('networkidle')
}

async function signUp(page: Page, prefix: string) {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await page.request.post('/api/register', {
    data: { username: email, firstName: '', lastName: '', email, password: 'e2e-secret-1', confirmPassword: 'e2e-secret-1' },
  })
  expect(res.status()).toBe(201)
  return email
}

/** Makes a registered user an admin the way an operator does: the CLI on the server's data directory. */
function grantAdmin(email: string) {
  execFileSync(process.env.SQUARELY_E2E_BIN ?? '../bin/squarely', ['admin', 'grant', email], {
    env: { ...process.env, SQUARELY_DATA_DIR: process.env.SQUARELY_E2E_DATA_DIR, DATABASE_URL: '' },
  })
}

for (const width of [390, 1280]) {
  test(`public pages have no serious or critical axe violations at ${width} px`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width, height: 900 })
    const found: string[] = []
    for (const path of publicPages) {
      await open(page, path)
      for (const line of await violations(page)) found.push(`${path}: ${line}`)
    }
    expect(found).toEqual([])
  })
}

test('signed-in pages have no serious or critical axe violations', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const email = await signUp(page, 'a11y')
  grantAdmin(email)
  const destination = `${baseURL}/about`
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name: 'Poster' },
  })
  expect(created.status()).toBe(201)
  const saved = await page.request.post('/api/qrcodes', { multipart: { qrType: 'text', text: 'Hello', name: 'Note' } })
  expect(saved.status()).toBe(201)

  const found: string[] = []
  for (const path of ['/dashboard', '/dashboard?create=true', '/dashboard?view=paused', '/account-settings', '/bulk-generation', '/newsletter', '/white-label-admin']) {
    await open(page, path)
    for (const line of await violations(page)) found.push(`${path}: ${line}`)
  }
  await open(page, '/dashboard')
  await expect(page.getByTestId('qr-card')).toHaveCount(2)
  for (const line of await violations(page)) found.push(`/dashboard (cards): ${line}`)
  expect(found).toEqual([])
})

test('closing a dialog returns focus to the control that opened it', async ({ page, baseURL }) => {
  await signUp(page, 'a11y-focus')
  const destination = `${baseURL}/faq`
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name: 'Flyer' },
  })
  expect(created.status()).toBe(201)
  await open(page, '/dashboard')
  const item = page.getByTestId('qr-card').first()

  // Escape, Cancel and × each hand focus back to the button that opened the dialog.
  const closers: [string, string, (dialog: ReturnType<Page['getByRole']>) => Promise<void>][] = [
    ['View', 'QR Code Preview', () => page.keyboard.press('Escape')],
    ['Edit', 'Edit Dynamic QR Code', (d) => d.getByRole('button', { name: 'Cancel' }).click()],
    ['Delete', 'Delete QR Code', (d) => d.getByRole('button', { name: 'Close' }).click()],
    ['Password', 'Ask for a password', () => page.keyboard.press('Escape')],
  ]
  for (const [button, title, close] of closers) {
    const opener = item.getByRole('button', { name: button, exact: true })
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText(title)
    await close(dialog)
    await expect(dialog).toHaveCount(0)
    await expect(opener, `focus returns to ${button}`).toBeFocused()
  }

  // After its action: a saved destination returns focus to Edit too.
  const edit = item.getByRole('button', { name: 'Edit', exact: true })
  await edit.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Destination URL').fill(`${baseURL}/contact`)
  await dialog.getByRole('button', { name: 'Save Changes' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(edit).toBeFocused()

  // Opened from a menu item, which leaves with its menu: focus goes back to the menu's button.
  const menuButton = page.getByRole('button', { name: 'Account menu' })
  await menuButton.click()
  await page.getByRole('menuitem', { name: 'Change Password' }).click()
  const password = page.getByRole('dialog')
  await expect(password).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(password).toHaveCount(0)
  await expect(menuButton).toBeFocused()
})

test('a keyboard user choosing events, sms or bitcoin gets the Future Feature dialog', async ({ page }) => {
  await open(page, '/')
  const generator = page.locator('#qr-generator')
  const trigger = generator.getByRole('combobox', { name: 'QR code type' })
  for (const label of ['Events', 'SMS', 'Bitcoin']) {
    await trigger.focus()
    await page.keyboard.press('Enter')
    const option = page.getByRole('option', { name: label })
    await expect(option).toBeVisible()
    // Walk the list with the arrow keys to the option, then choose it with Enter.
    for (let i = 0; i < 20 && !(await option.evaluate((el) => el.hasAttribute('data-highlighted'))); i++) await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    const future = page.getByRole('dialog', { name: 'Future Feature' })
    await expect(future).toBeVisible()
    await page.waitForTimeout(300)
    await expect(future).toBeVisible()
    await page.keyboard.press('Enter') // "Got it" has the focus
    await expect(future).toHaveCount(0)
    await expect(trigger).toHaveText('Website')
    await expect(trigger).toBeFocused()
  }
})

test('Generate leaves focus on the result, and the colour area tells its values', async ({ page }) => {
  await open(page, '/')
  const generator = page.locator('#qr-generator')
  await generator.getByLabel('Website URL').fill('https://example.com/a11y')
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  const focused = page.locator(':focus')
  await expect(focused).toHaveCount(1)
  // The result: the download button, or the preview that shows the code.
  await expect(focused).toHaveAccessibleName(/download|QR code preview/i)

  // A focused tab panel shows a ring.
  await generator.getByRole('tab', { name: 'Colors' }).click()
  await page.keyboard.press('Tab')
  const panel = generator.getByRole('tabpanel', { name: 'Colors' })
  await expect(panel).toBeFocused()
  expect(await panel.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none')

  const area = generator.getByRole('group', { name: 'QR code color' }).getByRole('slider').first()
  await expect(area).toHaveAttribute('aria-valuetext', /saturation \d+%.*lightness \d+%/i)
})

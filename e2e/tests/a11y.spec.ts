import { expect, test, type Locator, type Page } from '@playwright/test'
import { violations } from '../support/axe'
import { confirmEmail, grantAdmin, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

// The tests are independent (each signs up its own account): the two
// workers share them, so the suite does not end on one worker running
// this whole file alone.
test.describe.configure({ mode: 'parallel' })

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

/** Loads a page and waits for the app to have drawn it (lazy pages, then fonts and data). */
async function open(page: Page, path: string) {
  await page.goto(path)
  await page.locator('main, [role="main"], h1').first().waitFor()
  await page.waitForLoadState('networkidle')
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
  const email = uniqueEmail('a11y')
  await signUp(page, email)
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

test('the workspace and account pages, two-factor set-up, the edit dialog’s tabs and the invitation page have no serious or critical axe violations', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000)
  // A confirmed address: two-factor set-up asks for one.
  const email = uniqueEmail('a11y-team')
  await signUp(page, email)
  await confirmEmail(page, email)

  // A team workspace with something on each page: a pending invitation, an
  // endpoint, a domain, a brand kit, an API key and a dynamic code.
  const ws = await page.request.post('/api/workspaces', { data: { name: 'Harbour Agency' } })
  expect(ws.status()).toBe(201)
  const { id } = (await ws.json()) as { id: number }
  expect((await page.request.post(`/api/workspaces/${id}/activate`)).status()).toBe(200)
  const invited = uniqueEmail('a11y-invited')
  const made = [
    await page.request.post(`/api/workspaces/${id}/invitations`, { data: { email: invited, role: 'editor' } }),
    await page.request.post('/api/webhooks', { data: { url: 'http://127.0.0.1:9/hook', events: ['scan.created'], description: 'Sheet sync' } }),
    await page.request.post('/api/domains', { data: { domain: 'qr.harbour.example' } }),
    await page.request.post('/api/brand-kits', { data: { name: 'Harbour', fgColor: '#0B3D91', dotShape: 'circle' } }),
    await page.request.post('/api/api-keys', { data: { name: 'Print shop' } }),
    await page.request.post('/api/gs1/products', {
      data: { gtin: '09506000134352', name: 'Harbour tea', links: [{ linkType: 'gs1:defaultLink', href: `${baseURL}/about`, title: 'About the tea' }] },
    }),
    await page.request.post('/api/dynamic-qrcodes', {
      multipart: { destination: `${baseURL}/about`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/about` }), name: 'Poster' },
    }),
  ]
  for (const res of made) expect(res.status(), await res.text()).toBe(201)

  const found: string[] = []
  const check = async (where: string) => {
    for (const line of await violations(page)) found.push(`${where}: ${line}`)
  }
  for (const path of ['/workspace/members', '/workspace/members?tab=security', '/workspace/activity', '/webhooks', '/workspace/domains', '/workspace/brand-kits', '/workspace/products', '/workspace/imports', '/workspace/api-keys', '/workspace/export', '/account-settings']) {
    await open(page, path)
    await check(path)
  }

  // Account security: two-factor set-up's QR code and code field (the page is still /account-settings).
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  await expect(page.getByLabel('Code from the app')).toBeVisible()
  await check('/account-settings (two-factor set-up)')

  // The edit dialog, on each of its tabs.
  await open(page, '/dashboard')
  await page.getByTestId('qr-card').getByRole('button', { name: 'Edit', exact: true }).click()
  const dialog = page.getByRole('dialog')
  for (const tab of ['Destination', 'Rules', 'Split', 'Schedule & limit', 'Domain']) {
    await dialog.getByRole('tab', { name: tab }).click()
    await expect(dialog.getByRole('tabpanel', { name: tab })).toBeVisible()
    await check(`/dashboard (edit dialog, ${tab})`)
  }

  // The mailed invitation, opened signed out (its summary and the way to an account), then by the invitee signed in.
  const mail = await waitForMail(invited, (m) => m.text.includes('/invitations/accept?token='))
  const link = /(http\S+\/invitations\/accept\?token=[\w-]+&email=\S+)/.exec(mail.text)?.[1]
  expect(link, mail.text).toBeTruthy()
  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto(link as string)
  await expect(visitor.getByTestId('invitation-summary')).toContainText('Harbour Agency')
  await visitor.waitForLoadState('networkidle')
  for (const line of await violations(visitor)) found.push(`/invitations/accept (signed out): ${line}`)
  await signUp(visitor, invited)
  await visitor.goto(link as string)
  await expect(visitor.getByRole('button', { name: 'Accept invitation' })).toBeVisible()
  for (const line of await violations(visitor)) found.push(`/invitations/accept (the invitee): ${line}`)
  await context.close()
  expect(found).toEqual([])
})

// An opened dialog takes focus (Radix does it in an effect, a moment after the
// dialog shows): only then does it also hear Escape.
async function focusMovesInto(dialog: Locator) {
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement)), { message: 'focus moves into the dialog' }).toBe(true)
}

test('closing a dialog returns focus to the control that opened it', async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail('a11y-focus'))
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
    await focusMovesInto(dialog)
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
  await focusMovesInto(password)
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

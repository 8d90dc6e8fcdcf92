import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { violations } from '../support/axe'
import { confirmEmail, linkIn, password, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

// Issue 39: the app as people meet it, on a phone and a desktop.

// Several password hashes and mails on a machine shared with other runs.
test.describe.configure({ mode: 'parallel', timeout: 120_000 })
expect.configure({ timeout: 20_000 })

/** How far an element (or the document) is wider than its box: 0 when nothing scrolls sideways. */
async function sideways(target: Page | Locator) {
  if ('goto' in target) return target.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  return target.evaluate((el) => el.scrollWidth - el.clientWidth)
}

/** Whether a control is inside the viewport and is what a tap at its centre reaches (nothing covers it). */
async function reachable(page: Page, control: Locator) {
  const box = await control.boundingBox()
  const view = page.viewportSize()
  if (!box || !view) return false
  const inside = box.y >= 0 && box.x >= 0 && box.y + box.height <= view.height && box.x + box.width <= view.width
  const onTop = await control.evaluate(
    (el, [x, y]) => {
      // A disabled button takes no pointer events (so the hit test would pass through it): ask as if it did.
      const before = (el as HTMLElement).style.pointerEvents
      ;(el as HTMLElement).style.pointerEvents = 'auto'
      const hit = document.elementFromPoint(x, y)
      ;(el as HTMLElement).style.pointerEvents = before
      return hit !== null && (hit === el || el.contains(hit))
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  )
  return inside && onTop
}

function card(page: Page, name: string): Locator {
  return page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

/** A dynamic code saved through the API in the page's active workspace. */
async function dynamicCode(page: Page, name: string, destination = 'https://cafe.example/menu') {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; shortCode: string; shortUrl: string }
}

// Item 1: the Edit Dynamic QR Code dialog on a phone.
const tabs = [
  ['Destination', 'Save Changes'],
  ['Rules', 'Save Routing'],
  ['Split', 'Save Routing'],
  ['Schedule & limit', 'Save Routing'],
  ['Domain', 'Save Domain'],
] as const

for (const [width, height] of [
  [360, 640],
  [375, 667],
  [390, 844],
  [1280, 800],
] as const) {
  test(`the Edit Dynamic QR Code dialog fits ${width}×${height}: no sideways scroll, Save in reach on every tab`, async ({ page }) => {
    await page.setViewportSize({ width, height })
    await signUp(page, uniqueEmail('ux-edit'))
    const code = await dynamicCode(page, 'Long menu')
    // Three rules and a split make the tabs taller than a phone's screen.
    const rule = (os: string) => ({ when: { os: [os], country: ['DE', 'FR'], days: ['mon', 'tue'], from: '08:00', to: '18:00', timeZone: 'Europe/Berlin' }, destination: `https://cafe.example/${os}` })
    const routed = await page.request.put(`/api/dynamic-qrcodes/${code.id}/routing`, {
      data: {
        rules: [rule('ios'), rule('android'), rule('windows')],
        split: [
          { destination: 'https://cafe.example/a-very-long-path/that-goes-on-and-on/and-on?utm_source=flyer&utm_campaign=spring', weight: 50 },
          { destination: 'https://cafe.example/b', weight: 50 },
        ],
      },
    })
    expect(routed.status()).toBe(200)

    await page.goto('/dashboard')
    await card(page, 'Long menu').getByRole('button', { name: 'Edit' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })
    // The title is in view as the dialog opens on its Destination tab.
    await expect(dialog.getByRole('tab', { name: 'Destination' })).toHaveAttribute('aria-selected', 'true')
    expect(await reachable(page, dialog.getByRole('heading', { name: 'Edit Dynamic QR Code' }))).toBe(true)

    for (const [tab, save] of tabs) {
      await dialog.getByRole('tab', { name: tab }).click()
      const panel = dialog.getByRole('tabpanel', { name: tab })
      await expect(panel).toBeVisible()
      expect(await sideways(page), `${tab}: the page scrolls sideways`).toBeLessThanOrEqual(0)
      expect(await sideways(dialog), `${tab}: the dialog scrolls sideways`).toBeLessThanOrEqual(0)
      expect(await sideways(panel), `${tab}: the panel scrolls sideways`).toBeLessThanOrEqual(0)
      // Every tab stays reachable: the list wraps instead of running off the side.
      // (Polled: the Domain tab's lazy short-code field and domain list arrive after it opens.)
      for (const [other] of tabs) await expect.poll(() => reachable(page, dialog.getByRole('tab', { name: other })), { message: `tab ${other} on ${tab}` }).toBe(true)
      // Save is in view at the top of the panel and still after scrolling to its end.
      // (Polled: a panel's data, such as the Domain tab's list, may still arrive and move things.)
      await panel.evaluate((el) => el.scrollTo(0, 0))
      await expect.poll(() => reachable(page, panel.getByRole('button', { name: save })), { message: `${save} on ${tab} (top)` }).toBe(true)
      await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight))
      await expect.poll(() => reachable(page, panel.getByRole('button', { name: save })), { message: `${save} on ${tab} (end)` }).toBe(true)
      expect(await violations(page, '[role="dialog"]'), `axe on ${tab}`).toEqual([])
    }
  })
}

// Item 5: failures say so.
test.describe('failures say so', () => {
  for (const width of [390, 1280]) {
    test(`a member made a viewer while the dashboard is open presses Pause: a toast names the role and the card stays (${width} px)`, async ({ page, browser }) => {
      await page.setViewportSize({ width, height: 900 })
      const team = `Acme Marketing ${Date.now()}`
      await signUp(page, uniqueEmail('ux-owner'))
      const made = await page.request.post('/api/workspaces', { data: { name: team } })
      expect(made.status()).toBe(201)
      const ws = (await made.json()) as { id: number }
      expect((await page.request.post(`/api/workspaces/${ws.id}/activate`)).status()).toBe(200)
      await dynamicCode(page, 'Menu card')

      // B joins as an editor.
      const bob = uniqueEmail('ux-member')
      expect((await page.request.post(`/api/workspaces/${ws.id}/invitations`, { data: { email: bob, role: 'editor' } })).status()).toBe(201)
      const mail = await waitForMail(bob, (m) => m.text.includes('/invitations/accept?token='))
      const token = new URL(linkIn(mail.text, '/invitations/accept')).searchParams.get('token')
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      const b = await context.newPage()
      const member = await signUp(b, bob)
      await confirmEmail(b, bob)
      expect((await b.request.post('/api/invitations/accept', { data: { token } })).status()).toBe(200)

      await b.goto('/dashboard')
      const menu = card(b, 'Menu card')
      await expect(menu.getByRole('button', { name: 'Pause' })).toBeVisible()

      // A makes B a viewer; B's screen still shows Pause.
      expect((await page.request.patch(`/api/workspaces/${ws.id}/members/${member.id}`, { data: { role: 'viewer' } })).status()).toBe(204)
      await menu.getByRole('button', { name: 'Pause' }).click()
      const toast = b.getByRole('status').filter({ hasText: 'Could not pause the QR code' })
      await expect(toast).toContainText(`You are a viewer in ${team}; only an editor or above can do this`)
      await expect(menu).toBeVisible()
      const list = (await (await b.request.get('/api/codes?kind=dynamic')).json()) as { items: { name: string; isPaused: boolean }[] }
      expect(list.items.find((c) => c.name === 'Menu card')?.isPaused).toBe(false)
      await context.close()
    })
  }

  test('a rename that cannot reach the server says so and keeps the name', async ({ page }) => {
    await signUp(page, uniqueEmail('ux-offline'))
    await dynamicCode(page, 'Menu card')
    await page.goto('/dashboard')
    const menu = card(page, 'Menu card')
    await menu.getByRole('button', { name: 'Rename Menu card' }).click()
    await page.getByRole('textbox', { name: 'QR code name' }).fill('Dinner card')
    await page.route('**/api/dynamic-qrcodes/*', (route) => (route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.continue()))
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Could not rename the QR code' })).toContainText('Could not reach the server, try again')
    await expect(menu).toBeVisible()
    await expect(card(page, 'Dinner card')).toHaveCount(0)
  })
})

// Item 2: errors a person can act on.
for (const width of [390, 1280]) {
  test(`routing refusals show beside their fields in words, the first focused (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 })
    await signUp(page, uniqueEmail('ux-errors'))
    await dynamicCode(page, 'Spring menu')
    await page.goto('/dashboard')
    await card(page, 'Spring menu').getByRole('button', { name: 'Edit' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })

    // A rule without conditions says it takes every scan.
    await dialog.getByRole('tab', { name: 'Rules' }).click()
    await dialog.getByRole('button', { name: 'Add rule' }).click()
    await expect(dialog.getByText(/This rule has no conditions, so it takes every scan/)).toBeVisible()

    // Countries: a searchable chip list, by keyboard.
    const countries = dialog.getByRole('combobox', { name: 'Countries' })
    await countries.fill('germ')
    await expect(dialog.getByRole('option', { name: 'Germany' })).toBeVisible()
    await countries.press('Enter')
    await countries.fill('fran')
    await countries.press('ArrowDown')
    await countries.press('Enter')
    await expect(dialog.getByRole('list', { name: 'Chosen countries' }).getByRole('listitem')).toHaveText(['France', 'Germany'])
    await expect(dialog.getByText(/This rule has no conditions/)).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Remove France' }).click()
    await expect(dialog.getByRole('list', { name: 'Chosen countries' }).getByRole('listitem')).toHaveText(['Germany'])
    // Escape with the list open closes the list, not the dialog with its unsaved rule.
    await countries.fill('ital')
    await expect(dialog.getByRole('option', { name: 'Italy' })).toBeVisible()
    await countries.press('Escape')
    await expect(dialog.getByRole('option', { name: 'Italy' })).toHaveCount(0)
    await expect(dialog).toBeVisible()
    await countries.fill('')
    await dialog.getByLabel('Rule 1 URL').fill('javascript:alert(1)')

    // A schedule that ends before it starts.
    await dialog.getByRole('tab', { name: 'Schedule & limit' }).click()
    await dialog.getByLabel('Starts at').fill('2027-05-02T10:00')
    await dialog.getByLabel('Ends at').fill('2027-05-01T10:00')
    await dialog.getByRole('button', { name: 'Save Routing' }).click()

    // The dialog turns to the first tab with a refusal and focuses its field.
    await expect(dialog.getByRole('tab', { name: 'Rules' })).toHaveAttribute('aria-selected', 'true')
    const url = dialog.getByLabel('Rule 1 URL')
    await expect(url).toBeFocused()
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await expect(url).toHaveAccessibleDescription('Rule 1: destination is not a valid URL')
    expect(await violations(page, '[role="dialog"]')).toEqual([])
    await dialog.getByRole('tab', { name: 'Schedule & limit' }).click()
    await expect(dialog.getByLabel('Ends at')).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog.getByLabel('Ends at')).toHaveAccessibleDescription('The end must be after the start')
    await expect(dialog).not.toContainText('expiresAt')
    expect(await sideways(dialog.getByRole('tabpanel', { name: 'Schedule & limit' }))).toBeLessThanOrEqual(0)

    // Corrected, it saves and says so.
    await dialog.getByLabel('Ends at').fill('2027-05-03T10:00')
    await dialog.getByRole('tab', { name: 'Rules' }).click()
    await url.fill('https://cafe.example/de')
    await dialog.getByRole('button', { name: 'Save Routing' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Routing saved' })).toBeVisible()
    await expect(dialog).toBeHidden()
  })
}

// Item 3: analytics show routes by the names the owner gave them.
const iPhoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const desktopUA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

for (const width of [390, 1280]) {
  test(`a code with a rule and a split shows its Routes by name, in the dialog, the CSV and the PDF (${width} px)`, async ({ page, playwright }) => {
    await page.setViewportSize({ width, height: 900 })
    await signUp(page, uniqueEmail('ux-routes'))
    const code = await dynamicCode(page, 'Routed poster')
    const routed = await page.request.put(`/api/dynamic-qrcodes/${code.id}/routing`, {
      data: {
        rules: [{ when: { os: ['ios'] }, destination: 'https://cafe.example/iphone' }],
        split: [
          { destination: 'https://cafe.example/a', weight: 50 },
          { destination: 'https://cafe.example/b', weight: 50 },
        ],
      },
    })
    expect(routed.status()).toBe(200)
    for (const [ua, n] of [[iPhoneUA, 2], [desktopUA, 1]] as const) {
      const scanner = await playwright.request.newContext({ userAgent: ua })
      for (let i = 0; i < n; i++) expect((await scanner.get(`/d/${code.shortCode}`, { maxRedirects: 0 })).status()).toBe(302)
      await scanner.dispose()
    }

    await page.goto('/dashboard')
    if (width < 768) {
      // A phone keeps the dashboard's menu behind its button.
      await page.getByRole('button', { name: 'Open dashboard menu' }).click()
      await page.getByRole('dialog', { name: 'Dashboard menu' }).getByRole('button', { name: 'Analytics' }).click()
    } else {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Analytics' }).click()
    }
    const dialog = page.getByRole('dialog', { name: 'Analytics Dashboard' })
    const table = dialog.getByRole('table', { name: 'Scans by route' })
    await expect(table.getByRole('row', { name: /^Rule 1: iOS 2 67%/ })).toBeVisible()
    await expect(table.getByRole('row', { name: /^Variant [AB] 50% 1 33% 100%/ })).toBeVisible()
    await expect(dialog).not.toContainText('rule:0')
    expect(await sideways(page)).toBeLessThanOrEqual(0)
    expect(await violations(page, '[role="dialog"]')).toEqual([])

    const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download routes CSV' }).click()])
    const lines = readFileSync(await csv.path(), 'utf8').trim().split('\n')
    expect(lines[0]).toBe('route,scans,split_share,route_id')
    expect(lines[1]).toBe('Rule 1: iOS,2,,rule:0')
    expect(lines[2]).toMatch(/^Variant [AB] 50%,1,100%,split:[01]$/)

    const [pdf] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'PDF report' }).click()])
    const text = execFileSync('pdftotext', ['-layout', (await pdf.path()) as string, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
    expect(text).toContain('Rule 1: iOS')
    expect(text).toMatch(/Variant [AB] 50%, 100% of the split/)
    expect(text).not.toContain('rule:0')
  })
}

// Item 6: invitations that just work.
for (const width of [390, 1280]) {
  test(`an invitation from the mail: the address filled in, joined at once without a second confirmation; a second invitation is 409 (${width} px)`, async ({ page, browser }) => {
    await page.setViewportSize({ width, height: 844 })
    const team = `Acme Marketing ${Date.now()}`
    await signUp(page, uniqueEmail('ux-inviter'))
    const made = await page.request.post('/api/workspaces', { data: { name: team } })
    expect(made.status()).toBe(201)
    const ws = (await made.json()) as { id: number }
    expect((await page.request.post(`/api/workspaces/${ws.id}/activate`)).status()).toBe(200)

    // The owner invites from the Members page; the same address again is refused in words.
    const newcomer = uniqueEmail('ux-newcomer')
    await page.goto('/workspace/members')
    await page.getByLabel('Email').fill(newcomer)
    await page.getByLabel('Role').selectOption('editor')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
    await page.getByLabel('Email').fill(newcomer.toUpperCase())
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByText('Already invited as Editor')).toBeVisible()
    const me = (await (await page.request.get('/api/user')).json()) as { username: string }
    const again = await page.request.post(`/api/workspaces/${ws.id}/invitations`, { data: { email: me.username, role: 'viewer' } })
    expect(again.status()).toBe(409)
    expect(((await again.json()) as { message: string }).message).toBe('Already a member')

    // The newcomer follows the mailed link, signed out.
    const mail = await waitForMail(newcomer, (m) => m.text.includes('/invitations/accept?token='))
    const link = /(http\S+\/invitations\/accept\?token=[\w-]+&email=\S+)/.exec(mail.text)?.[1]
    expect(link, mail.text).toBeTruthy()
    const context = await browser.newContext({ viewport: { width, height: 844 } })
    const b = await context.newPage()
    await b.goto(link as string)
    // Each switch between the forms is a transition: the heading says which form "Email" is in.
    await b.getByRole('link', { name: 'Create an account' }).click()
    await expect(b.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(b.getByLabel('Email', { exact: true })).toHaveValue(newcomer)
    // Sign in has it too.
    await b.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(b.getByRole('heading', { name: 'Welcome back' })).toBeVisible()
    await expect(b.getByLabel('Email', { exact: true })).toHaveValue(newcomer)
    await b.getByRole('button', { name: 'Create a free account' }).click()
    await expect(b.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(b.getByLabel('Email', { exact: true })).toHaveValue(newcomer)
    await b.getByLabel('Password', { exact: true }).fill(password)
    await b.getByRole('button', { name: 'Create Account' }).click()
    await expect(b).toHaveURL(/\/invitations\/accept\?token=/)

    // No confirmation mail to follow first: Accept works at once, and the address counts as confirmed.
    await b.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(b.getByText(`You joined ${team} as editor.`)).toBeVisible()
    expect(((await (await b.request.get('/api/user')).json()) as { emailVerified: boolean }).emailVerified).toBe(true)
    await b.getByRole('link', { name: 'Go to the shared QR codes' }).click()

    // The workspace's name shows over the dashboard and in the header, on a phone too.
    await expect(b.getByTestId('dashboard-workspace')).toHaveText(team)
    await expect(b.getByRole('banner').getByRole('button', { name: `Workspace: ${team}` })).toBeVisible()
    await expect(b).toHaveTitle(new RegExp(team))
    expect(await sideways(b)).toBeLessThanOrEqual(0)
    await context.close()
  })
}

// Item 4 (part): emoji in frame text are refused with a clear message, in the generator's preview and by the API.
for (const width of [390, 1280]) {
  test(`emoji in the frame text are refused in words, not dropped from the print (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto('/')
    const generator = page.locator('#qr-generator')
    await generator.scrollIntoViewIfNeeded()
    await generator.getByLabel('Website URL').fill('https://example.com/frame')
    await generator.getByRole('tab', { name: 'Frame' }).click()
    await generator.getByRole('switch', { name: 'Add a frame' }).click()
    await generator.getByLabel('Frame text').fill('Coffee ☕ here')
    const message = 'Frame text cannot include ☕: emoji and such symbols cannot be printed. Please remove them.'
    await expect(generator.getByText(message)).toBeVisible()
    expect(await sideways(page)).toBeLessThanOrEqual(0)
    const res = await page.request.post('/api/download-qrcode', {
      data: { qrType: 'url', url: 'https://example.com/frame', enableFrame: true, frameText: 'Scan 🎉', format: 'png' },
    })
    expect(res.status()).toBe(400)
    expect(((await res.json()) as { errors: Record<string, string> }).errors.frameText).toBe(
      'Frame text cannot include 🎉: emoji and such symbols cannot be printed. Please remove them.',
    )
  })
}

/** A PNG's width (IHDR) and its pHYs density in pixels per metre along x, or null without one. */
function pngSize(file: Buffer) {
  const width = file.readUInt32BE(16)
  const at = file.indexOf('pHYs')
  return { width, pixelsPerMetre: at < 0 ? null : file.readUInt32BE(at + 4) }
}

// Item 4: print output for everyone — a saved code's card downloads print files with the generator's options.
for (const width of [390, 1280]) {
  test(`a card's Download dialog saves a 50 mm PNG at 300 dpi that scans and says its size (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 })
    await signUp(page, uniqueEmail('ux-print'))
    const code = await dynamicCode(page, 'Print menu')
    await page.goto('/dashboard')
    await card(page, 'Print menu').getByRole('button', { name: 'Download' }).click()
    const dialog = page.getByRole('dialog', { name: 'Download' })
    await expect(dialog.getByRole('radio', { name: /PNG/ })).toBeChecked()
    // Each select is wide enough for its choice ("Screen (no print size)"
    // was cut to "Screen (no pri" in half a phone's dialog).
    for (const label of ['PNG size', 'Print size']) {
      const fits = await dialog.getByLabel(label).evaluate((el: HTMLSelectElement) => {
        const style = getComputedStyle(el)
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const text = context.measureText(el.selectedOptions[0].text).width
        return text + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) <= el.clientWidth
      })
      expect(fits, `${label} shows its whole choice`).toBe(true)
    }
    await dialog.getByLabel('Print size').selectOption('50')
    await expect(dialog.getByLabel('PNG resolution')).toHaveValue('300')
    // The preflight's verdict for the saved code as drawn (its short URL).
    await expect(dialog.getByTestId('preflight')).toContainText('At 50 mm this code scans from up to 50 cm')
    await dialog.getByLabel('Read from').selectOption('500')
    await expect(dialog.getByTestId('preflight')).toContainText('to be read at 5 m, print it at least')
    expect(await sideways(page)).toBeLessThanOrEqual(0)
    expect(await sideways(dialog)).toBeLessThanOrEqual(0)
    expect(await violations(page, '[role="dialog"]')).toEqual([])

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download PNG' }).click()])
    expect(download.suggestedFilename()).toBe('Print-menu.png') // named after the code
    const file = (await download.path()) as string
    const png = pngSize(readFileSync(file))
    expect(png.width).toBe(591) // round(50 / 25.4 × 300)
    expect(png.pixelsPerMetre).toBe(11811) // round(300 / 0.0254)
    expect(execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim()).toBe(code.shortUrl)
    await expect(dialog).toBeHidden()
  })
}

// Item 8: /docs/api (code blocks) and the Members page (long names) do not scroll sideways on a phone.
for (const width of [390, 1280]) {
  test(`/docs/api and the Members page do not scroll sideways at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto('/docs/api')
    await expect(page.locator('pre').first()).toBeVisible()
    // Measured with the endpoints listed: their paths are the longest words.
    await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible()
    expect(await sideways(page), '/docs/api scrolls sideways').toBeLessThanOrEqual(0)

    const long = `${Date.now()}-${Math.floor(Math.random() * 1e6)}-a-very-long-local-part-for-an-address`.padEnd(64, 'x')
    await signUp(page, `${long}@a-rather-long-subdomain.of-an-example-company.example.com`)
    const me = (await (await page.request.get('/api/user')).json()) as { workspace: { id: number } }
    const invited = `${long}@another-very-long-domain-name-of-a-partner-agency.example.org`
    const res = await page.request.post(`/api/workspaces/${me.workspace.id}/invitations`, { data: { email: invited, role: 'viewer' } })
    expect(res.status()).toBeLessThan(300)
    await page.goto('/workspace/members')
    await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(invited)
    expect(await sideways(page), 'the Members page scrolls sideways').toBeLessThanOrEqual(0)
  })
}

// Item 8: webhook deliveries get Retry now and a payload/response view; endpoints can be edited.
for (const width of [390, 1280]) {
  test(`a failing webhook delivery shows its payload and answer, retries now, and the endpoint is edited (${width} px)`, async ({ page }) => {
    const hits: string[] = []
    const receiver = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        hits.push(req.url ?? '')
        res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"error":"the CRM is down for maintenance"}')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      await page.setViewportSize({ width, height: 844 })
      await signUp(page, uniqueEmail('ux-hooks'))
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`
      const created = await page.request.post('/api/webhooks', { data: { url, events: ['webhook.test'] } })
      expect(created.status()).toBe(201)
      const hook = (await created.json()) as { id: number }
      expect((await page.request.post(`/api/webhooks/${hook.id}/test`)).status()).toBe(202)
      // The runner's own retry comes 5 s after the first failure; the next is 5 min away.
      await expect.poll(() => hits.length).toBe(2)

      await page.goto('/webhooks')
      const row = page.getByTestId('delivery')
      await expect(row).toContainText('2 attempts · last answer HTTP 503')
      await row.getByRole('button', { name: /^Details/ }).click()
      const details = page.getByRole('dialog', { name: /^Delivery msg_/ })
      await expect(details.getByTestId('delivery-payload')).toContainText('"type": "webhook.test"')
      await expect(details.getByTestId('delivery-response')).toHaveText('{"error":"the CRM is down for maintenance"}')
      expect(await sideways(details)).toBeLessThanOrEqual(0)
      expect(await violations(page, '[role="dialog"]')).toEqual([])
      await page.keyboard.press('Escape')

      // Pending, its next attempt minutes away: Retry now sends it at once.
      await row.getByRole('button', { name: 'Retry now' }).click()
      await expect(page.getByText('Retrying now', { exact: true })).toBeVisible()
      await expect.poll(() => hits.length).toBe(3)

      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      const edit = page.getByRole('dialog', { name: 'Edit endpoint' })
      expect(await violations(page, '[role="dialog"]')).toEqual([])
      expect(await sideways(edit)).toBeLessThanOrEqual(0)
      await edit.getByLabel('Endpoint URL').fill(`${url}/v2`)
      await edit.getByRole('button', { name: 'Save endpoint' }).click()
      await expect(page.getByText('Endpoint saved', { exact: true })).toBeVisible()
      await expect(page.getByRole('region', { name: `Endpoint ${url}/v2` })).toBeVisible()
      expect(await sideways(page)).toBeLessThanOrEqual(0)
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
    }
  })
}

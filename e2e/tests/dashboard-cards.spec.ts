import { expect, test, type Locator, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 21 item 1: every button of a dashboard card lies inside the card and
// can be clicked at phone, tablet and desktop widths; a restyled card shows
// its new design without a reload.

async function createDynamic(page: Page, name: string, destination: string) {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
}

function card(page: Page, name: string): Locator {
  return page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

/**
 * Each button lies inside the card, and a click at its centre lands on it.
 * Only the window scrolls: scrollIntoView would also scroll a card that clips
 * its content and hide the very fault this looks for.
 */
async function expectButtonsInside(item: Locator, names: string[]) {
  for (const name of names) {
    const button = item.getByRole('button', { name, exact: true })
    // The site scrolls smoothly; an instant scroll keeps the boxes still while they are measured.
    await button.evaluate((el) => window.scrollBy({ top: el.getBoundingClientRect().top - window.innerHeight / 2, behavior: 'instant' }))
    // Both boxes in one frame, measured again until the page settles (the
    // list's filters and labels load after the cards): a button that stays
    // outside its card fails.
    await expect(async () => {
      const { b, c } = await button.evaluate((el) => {
        const box = (e: Element) => {
          const r = e.getBoundingClientRect()
          return { x: r.x, y: r.y, width: r.width, height: r.height }
        }
        return { b: box(el), c: box(el.closest('[data-testid="qr-card"]')!) }
      })
      expect(b.width, `${name} has a size`).toBeGreaterThan(16)
      expect(b.x, `${name} starts inside the card`).toBeGreaterThanOrEqual(c.x - 0.5)
      expect(b.y, `${name} starts inside the card`).toBeGreaterThanOrEqual(c.y - 0.5)
      expect(b.x + b.width, `${name} ends inside the card`).toBeLessThanOrEqual(c.x + c.width + 0.5)
      expect(b.y + b.height, `${name} ends inside the card`).toBeLessThanOrEqual(c.y + c.height + 0.5)
    }).toPass({ timeout: 5_000 })
    const hit = await button.evaluate((el) => {
      const r = el.getBoundingClientRect()
      const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
      return !!at && (at === el || el.contains(at))
    })
    expect(hit, `${name} is on top at its centre`).toBe(true)
  }
}

for (const width of [360, 768, 1024, 1280]) {
  test(`card buttons lie inside their cards at ${width} px`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 900 })
    await signUp(page, uniqueEmail('cards'))
    await createDynamic(page, 'Shop window poster', `${baseURL}/about`)
    const saved = await page.request.post('/api/qrcodes', {
      multipart: { qrType: 'text', text: 'Hello there', name: 'Greeting' },
    })
    expect(saved.status()).toBe(201)

    await page.goto('/dashboard')
    const dynamic = card(page, 'Shop window poster')
    await expect(dynamic).toBeVisible()
    await expectButtonsInside(dynamic, ['Download', 'View', 'Edit', 'Pause', 'Password', 'Restyle', 'Duplicate', 'Delete'])
    await expectButtonsInside(card(page, 'Greeting'), ['Download', 'View', 'Restyle', 'Duplicate', 'Delete'])

    // The paused view's cards: Resume, View, Delete.
    // The pause is answered before the page leaves: a navigation would cut the request off.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/pause') && r.ok()),
      dynamic.getByRole('button', { name: 'Pause', exact: true }).click(),
    ])
    await page.goto('/dashboard?view=paused')
    const paused = card(page, 'Shop window poster')
    await expect(paused.getByRole('button', { name: 'Resume', exact: true })).toBeVisible()
    await expectButtonsInside(paused, ['Resume', 'View', 'Delete'])
  })
}

test('a restyled or regenerated card shows its new picture at once', async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail('cards'))
  await createDynamic(page, 'Menu', `${baseURL}/faq`)
  await page.goto('/dashboard')
  const item = card(page, 'Menu')
  const picture = item.getByRole('button', { name: 'Preview Menu' }).locator('img')
  const before = await picture.getAttribute('src')
  expect(before).toBeTruthy()

  await item.getByRole('button', { name: 'Restyle' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restyle QR Code' })
  const hex = dialog.getByRole('group', { name: 'QR code color' }).getByLabel('HEX')
  await hex.fill('#B71C1C')
  await hex.press('Enter')
  await dialog.getByRole('button', { name: 'Save Style' }).click()
  await expect(dialog).toBeHidden()

  // The same document (no reload) now asks for another picture, and it is the new one.
  await expect(picture).not.toHaveAttribute('src', before!)
  const after = (await picture.getAttribute('src'))!
  const svg = await (await page.request.get(after)).text()
  expect(svg.toUpperCase()).toContain('#B71C1C')
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc.endsWith(img.getAttribute('src')!)))
    .toBe(true)
})

import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 21 item 5, on a phone: the bulk page does not scroll sideways and its
// file choosers look like the site's buttons; toasts leave the header alone;
// a 40-character frame text stays inside the preview's frame.

test('the bulk page fits a 360 px phone, and its file choosers are styled', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 })
  await signUp(page, uniqueEmail('phone'))
  await page.goto('/bulk-generation')
  await expect(page.getByRole('heading', { name: 'Bulk QR Code Generation' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }))
  expect(widths.page, 'no sideways scroll').toBeLessThanOrEqual(widths.view)
  for (const label of ['Upload a file (.csv or .txt)', 'Spreadsheet (.csv or .xlsx)']) {
    const input = page.getByLabel(label)
    const button = await input.evaluate((el) => {
      const s = getComputedStyle(el, '::file-selector-button')
      return { radius: s.borderTopLeftRadius, border: s.borderTopWidth, weight: s.fontWeight }
    })
    expect(button, label).toEqual({ radius: '8px', border: '0px', weight: '600' })
    const box = (await input.boundingBox())!
    expect(box.x + box.width, `${label} stays on screen`).toBeLessThanOrEqual(360)
  }
})

test('a toast on a phone leaves the header uncovered', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/auth')
  await page.getByLabel('Email').first().fill('nobody-here@example.com')
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1')
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  const toast = page.getByRole('status').filter({ hasText: 'Login failed' }).first()
  await expect(toast).toBeVisible()
  const header = (await page.locator('header').first().boundingBox())!
  const box = (await toast.boundingBox())!
  expect(box.y, 'the toast starts below the header').toBeGreaterThanOrEqual(header.y + header.height - 0.5)
  // The header's menu button is still the thing under the pointer.
  const menu = page.locator('header').getByRole('button').last()
  const onTop = await menu.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
    return !!at && (at === el || el.contains(at))
  })
  expect(onTop).toBe(true)
})

test('a 40-character frame text fits the preview frame at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/')
  const generator = page.locator('#qr-generator')
  // Below a phone's first screen, the generator loads as the visitor scrolls to it.
  await generator.scrollIntoViewIfNeeded()
  await generator.getByLabel('Website URL').fill('https://example.com/frame')
  await generator.getByRole('tab', { name: 'Frame' }).click()
  await generator.getByRole('switch', { name: 'Add a frame' }).click()
  const text = 'SCAN TO SEE OUR FULL MENU AND PRICES NOW'
  expect(text).toHaveLength(40)
  await generator.getByLabel('Frame text').fill(text)
  const preview = generator.getByRole('img', { name: 'QR code preview' })
  await expect.poll(async () => decodeURIComponent((await preview.getAttribute('src')) ?? '')).toContain(text)

  // The preview is shown whole, and in it the text's box lies inside the frame's.
  const img = (await preview.boundingBox())!
  expect(img.x).toBeGreaterThanOrEqual(0)
  expect(img.x + img.width).toBeLessThanOrEqual(390)
  const fit = await preview.evaluate((el: HTMLImageElement) => {
    // The preview is a data: URL of the server's SVG (the page's policy lets no fetch read it).
    const svgText = decodeURIComponent(el.src.slice(el.src.indexOf(',') + 1))
    const host = document.createElement('div')
    host.style.cssText = `position:absolute;left:0;top:0;width:${el.getBoundingClientRect().width}px`
    host.innerHTML = svgText
    document.body.append(host)
    const svg = host.querySelector('svg')!
    svg.setAttribute('width', '100%')
    svg.removeAttribute('height')
    const frame = svg.querySelector('path, rect')!.getBoundingClientRect()
    const label = svg.querySelector('text')!.getBoundingClientRect()
    host.remove()
    return { frame: [frame.left, frame.right], label: [label.left, label.right], size: label.height }
  })
  expect(fit.label[0]).toBeGreaterThanOrEqual(fit.frame[0])
  expect(fit.label[1]).toBeLessThanOrEqual(fit.frame[1])
})

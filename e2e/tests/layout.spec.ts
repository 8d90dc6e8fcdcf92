import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 10 item 1: no page scrolls sideways at phone, tablet and desktop
// widths, with the longest content a user is likely to type.

const widths = [390, 768, 1280]
const longUrl = `https://example.com/track?${'utm_campaign=spring-sale-2026&'.repeat(10)}`.slice(0, 300)

/** How far the document is wider than the viewport (0 when nothing scrolls sideways). */
async function overflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}

async function chooseType(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'QR code type' }).click()
  await page.getByRole('option', { name: label, exact: true }).click()
}

/** Whether two boxes overlap. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test.describe.configure({ mode: 'parallel', timeout: 90_000 })

test('the long URL is 300 characters', () => {
  expect(longUrl).toHaveLength(300)
})

for (const width of widths) {
  test(`at ${width} px the landing page, /auth and the generator hold a 300-character URL and a full contact card`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/')
    const generator = page.locator('#qr-generator')
    // Below a phone's first screen, the generator loads as the visitor scrolls to it.
    await generator.scrollIntoViewIfNeeded()
    await generator.getByLabel('Website URL').fill(longUrl)
    const preview = generator.getByRole('img', { name: 'QR code preview' })
    await expect(preview).toBeVisible()
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    if (width < 1024) {
      // Below the form on phones and tablets: one tap shows it.
      await generator.getByRole('button', { name: 'See the preview' }).click()
      await expect(preview).toBeInViewport()
    } else {
      await expect(preview).toBeInViewport()
    }
    await generator.getByRole('button', { name: 'Generate QR Code' }).click()
    const download = generator.getByRole('button', { name: 'Download PNG' })
    await expect(download).toBeInViewport()
    const toast = page.getByRole('region', { name: /Notifications/ }).locator('li').filter({ hasText: 'QR Code generated' })
    await expect(toast).toBeVisible()
    const [toastBox, downloadBox] = [await toast.boundingBox(), await download.boundingBox()]
    expect(toastBox && downloadBox && overlaps(toastBox, downloadBox)).toBe(false)
    expect(await overflow(page)).toBeLessThanOrEqual(0)

    await chooseType(page, 'Contact')
    await generator.getByLabel('First name').fill('Maximiliana-Alexandrina')
    await generator.getByLabel('Last name').fill('Vandersteenhoven-Oppenheimer-Castellanos')
    await generator.getByLabel('Email').fill('maximiliana.alexandrina.vandersteenhoven@very-long-company-domain.example.com')
    await generator.getByLabel('Phone number').fill('+44 20 7946 0958 ext. 12345')
    await generator.getByLabel('Notes').fill('Head of partnerships, Europe, Middle East and Africa. '.repeat(4))
    await generator.getByLabel('Photo URL').fill(longUrl)
    await expect(generator.getByRole('img', { name: 'QR code preview' })).toBeVisible()
    expect(await overflow(page)).toBeLessThanOrEqual(0)

    await page.goto('/auth')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
    expect(await overflow(page)).toBeLessThanOrEqual(0)
  })

  test(`at ${width} px the dashboard holds saved codes with a 300-character URL and a full contact card`, async ({ page }) => {
    await signUp(page, uniqueEmail('layout'))
    const saveUrl = await page.request.post('/api/qrcodes', {
      multipart: { qrType: 'url', url: longUrl, name: 'A'.repeat(100) },
    })
    expect(saveUrl.status()).toBe(201)
    const saveDynamic = await page.request.post('/api/dynamic-qrcodes', {
      multipart: { qrType: 'url', destination: longUrl, qrData: JSON.stringify({ url: longUrl }), name: 'Spring campaign tracking link' },
    })
    expect(saveDynamic.status()).toBe(201)
    const saveContact = await page.request.post('/api/qrcodes', {
      multipart: {
        qrType: 'contact',
        firstName: 'Maximiliana-Alexandrina',
        lastName: 'Vandersteenhoven-Oppenheimer-Castellanos',
        email: 'maximiliana.alexandrina.vandersteenhoven@very-long-company-domain.example.com',
        phoneNumber: '+44 20 7946 0958',
        notes: 'Head of partnerships. '.repeat(10),
        imageUrl: longUrl,
      },
    })
    expect(saveContact.status()).toBe(201)

    await page.setViewportSize({ width, height: 900 })
    await page.goto('/dashboard')
    await expect(page.getByTestId('qr-card')).toHaveCount(3)
    expect(await overflow(page)).toBeLessThanOrEqual(0)

    await page.goto('/dashboard?create=true')
    await page.getByLabel('Website URL').fill(longUrl)
    await expect(page.getByRole('img', { name: 'QR code preview' })).toBeVisible()
    expect(await overflow(page)).toBeLessThanOrEqual(0)
  })
}

for (const width of [360, 768, 800, 871, 1024]) {
  test(`at ${width} px the visitor header fits`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/faq')
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    const header = page.locator('header').first()
    const box = await header.boundingBox()
    expect(box?.height ?? 0).toBeLessThanOrEqual(80)
  })
}

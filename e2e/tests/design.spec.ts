import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Design (issue 26 item 7): the shapes and gradients the generator offers,
// saved as a brand kit and applied to a new code in one step, proven on the
// file a user prints: a styled 50 mm, 300 dpi PNG that zbar and ZXing read.

/** What zbarimg reads in an image file; ZXingReader must read the same. */
function decode(file: string): string {
  const text = execFileSync('zbarimg', ['--raw', '-q', file]).toString().trim()
  expect(execFileSync('ZXingReader', ['-bytes', file]).toString().trim()).toBe(text)
  return text
}

test('classy dots and a radial gradient, saved as a brand kit, applied to a new code whose 50 mm, 300 dpi PNG scans', async ({
  page,
}, testInfo) => {
  await signUp(page, uniqueEmail('design'))

  await page.goto('/dashboard?create=true')
  const generator = page.locator('form', { has: page.getByRole('heading', { name: 'Generate Your QR Code' }) })
  await expect(generator).toBeVisible()
  const url = `https://example.com/design/${Date.now()}`
  await generator.getByLabel('Website URL').fill(url)

  await generator.getByRole('tab', { name: 'Colors' }).click()
  await generator.getByRole('radiogroup', { name: 'Body style' }).getByRole('radio', { name: 'Classy', exact: true }).click()
  await generator.getByRole('radio', { name: 'Second Color' }).click()
  await generator.getByRole('radiogroup', { name: 'Gradient type' }).getByRole('radio', { name: 'Radial' }).click()
  await expect(generator.getByLabel('Gradient angle (degrees)')).toHaveCount(0) // a radial gradient has none

  const preview = page.getByRole('img', { name: 'QR code preview' })
  await expect(preview).toBeVisible()
  // The preview is the server's drawing of exactly this style.
  await expect.poll(async () => decodeURIComponent((await preview.getAttribute('src')) ?? ''), { timeout: 5000 }).toContain('<radialGradient')

  // Saved as a brand kit …
  await page.getByRole('button', { name: 'Save as brand kit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save as brand kit' })
  await dialog.getByLabel('Kit name').fill('Classy radial')
  await dialog.getByRole('button', { name: 'Save kit' }).click()
  await expect(page.getByText('Brand kit saved', { exact: true })).toBeVisible()
  const kits = (await (await page.request.get('/api/brand-kits')).json()) as Array<Record<string, unknown>>
  expect(kits).toHaveLength(1)
  expect(kits[0]).toMatchObject({ name: 'Classy radial', dotShape: 'classy', gradientColor: '#FF00FF', gradientType: 'radial' })

  // … and applied to a new code, which starts plain, in one step.
  await page.goto('/dashboard?create=true')
  await expect(generator).toBeVisible()
  await generator.getByLabel('Website URL').fill(url)
  await generator.getByRole('tab', { name: 'Colors' }).click()
  const body = generator.getByRole('radiogroup', { name: 'Body style' })
  await expect(body.getByRole('radio', { name: 'Square', exact: true })).toBeChecked()
  await page.getByLabel('Brand kit').selectOption({ label: 'Classy radial' })
  await expect(page.getByText('Brand kit “Classy radial” applied', { exact: true })).toBeVisible()
  await expect(body.getByRole('radio', { name: 'Classy', exact: true })).toBeChecked()
  await expect(generator.getByRole('radiogroup', { name: 'Gradient type' }).getByRole('radio', { name: 'Radial' })).toBeChecked()
  await expect.poll(async () => decodeURIComponent((await preview.getAttribute('src')) ?? ''), { timeout: 5000 }).toContain('<radialGradient')

  const name = `Classy radial ${Date.now()}`
  await generator.getByLabel('Name (optional)').fill(name)
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code saved', { exact: true })).toBeVisible()
  const codes = (await (await page.request.get('/api/qrcodes')).json()) as Array<Record<string, unknown>>
  const saved = codes.find((c) => c.name === name)
  expect(saved).toMatchObject({
    data: url,
    dotShape: 'classy',
    gradientColor: '#FF00FF',
    gradientType: 'radial',
    gradientOnEyes: false,
  })

  // The saved code's PNG as the panel's Download PNG fetches it, at a print
  // size: the generator offers print sizes for codes it has not saved
  // (generator.spec.ts), a saved code takes them on its image route.
  const image = await page.request.get(`/api/qrcodes/${String(saved?.id)}/image?format=png&download=1&sizeMm=50&dpi=300`)
  expect(image.ok()).toBeTruthy()
  const png = testInfo.outputPath('classy-radial.png')
  writeFileSync(png, await image.body())
  const bytes = readFileSync(png)
  expect(bytes.readUInt32BE(16)).toBe(591) // IHDR width: round(50 / 25.4 × 300)
  expect(bytes.subarray(33, 41).toString('latin1')).toContain('pHYs')
  expect(bytes.readUInt32BE(41)).toBe(11811) // pixels per metre at 300 dpi
  expect(decode(png)).toBe(url)
})

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Restyle, Duplicate and regenerate (issue 10 items 4 and 5): a restyled
// dynamic code keeps its short link, so the printed copies and the new
// image scan to the same place; duplicates get their own link; pressing
// Generate again in the create view updates the code it made.

interface DynamicRecord {
  id: number
  name: string
  shortCode: string
  shortUrl: string
  destination: string
}

/** What zbarimg reads in a PNG; ZXingReader must read the same. */
function decode(png: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-restyle-'))
  try {
    const file = join(dir, 'code.png')
    writeFileSync(file, png)
    const text = execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim()
    expect(execFileSync('ZXingReader', ['-bytes', file], { encoding: 'utf8' }).trim()).toBe(text)
    return text
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function card(page: Page, name: string): Locator {
  return page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

async function dynamicCodes(page: Page) {
  const res = await page.request.get('/api/dynamic-qrcodes')
  expect(res.status()).toBe(200)
  return (await res.json()) as DynamicRecord[]
}

async function image(page: Page, id: number) {
  const res = await page.request.get(`/api/dynamic-qrcodes/${id}/image?format=png`)
  expect(res.status()).toBe(200)
  return res.body()
}

test('restyling a dynamic code keeps its short link; a duplicate gets a new one', async ({ page, baseURL }) => {
  test.setTimeout(60_000) // two restyles and a duplicate, each drawn and saved
  await signUp(page, uniqueEmail('restyle'))
  const destination = `${baseURL}/about`
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name: 'Table card' },
  })
  expect(created.status()).toBe(201)
  const code = (await created.json()) as DynamicRecord
  const link = `${baseURL}/d/${code.shortCode}`
  const before = await image(page, code.id)
  expect(decode(before)).toBe(link)

  await page.goto('/dashboard')
  const item = card(page, 'Table card')
  await item.getByRole('button', { name: 'Restyle' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restyle QR Code' })
  await expect(dialog).toContainText('Its short link stays the same')
  // The live preview is the code as it will be: it shows the short link.
  await expect(dialog.getByRole('img', { name: 'QR code preview' })).toBeVisible()
  await expect(dialog.getByText(link, { exact: true })).toBeVisible()

  // The generator's own controls: a dark blue body of circles, very rounded eyes.
  const hex = dialog.getByRole('group', { name: 'QR code color' }).getByLabel('HEX')
  await hex.fill('#1A237E')
  await hex.press('Enter')
  await dialog.getByRole('radiogroup', { name: 'Body style' }).getByRole('radio', { name: 'Circle' }).click()
  await dialog.getByRole('tab', { name: 'Edge and Center' }).click()
  await dialog.getByRole('radiogroup', { name: 'Border style' }).getByRole('radio', { name: 'Very rounded' }).click()
  await dialog.getByRole('button', { name: 'Save Style' }).click()
  await expect(page.getByText('Code restyled', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  const [restyled] = await dynamicCodes(page)
  expect(restyled).toMatchObject({ id: code.id, shortCode: code.shortCode, destination, fgColor: '#1A237E', dotShape: 'circle', cornerShape: 'circle' })
  const after = await image(page, code.id)
  expect(after.equals(before)).toBe(false)
  expect(decode(after)).toBe(link)
  await expect(item.getByText(link, { exact: true })).toBeVisible()

  // Duplicate: a second card, its own short link, the same destination and style.
  await item.getByRole('button', { name: 'Duplicate' }).click()
  await expect(page.getByText('Code duplicated', { exact: true })).toBeVisible()
  const copy = card(page, 'Table card (copy)')
  await expect(copy).toBeVisible()
  await expect(page.getByTestId('qr-card')).toHaveCount(2)
  const codes = await dynamicCodes(page)
  const dup = codes.find((c) => c.name === 'Table card (copy)')
  expect(dup).toBeDefined()
  expect(dup?.shortCode).not.toBe(code.shortCode)
  expect(dup?.destination).toBe(destination)
  await expect(copy.getByText(`${baseURL}/d/${dup?.shortCode}`, { exact: true })).toBeVisible()
  expect(decode(await image(page, dup!.id))).toBe(`${baseURL}/d/${dup?.shortCode}`)
})

test('Generate again in the create view updates the code it made; Start a new code saves another', async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail('restyle'))
  await page.goto('/dashboard?create=true')
  await page.getByLabel('Website URL').fill(`${baseURL}/about`)
  await page.getByLabel('Name (optional)').fill('Poster')
  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code saved', { exact: true })).toBeVisible()
  await expect(page.getByTestId('editing-code')).toContainText('Poster')

  await page.getByLabel('Website URL').fill(`${baseURL}/faq`)
  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code updated', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code updated', { exact: true }).first()).toBeVisible()

  let res = await page.request.get('/api/qrcodes')
  let saved = (await res.json()) as { id: number; name: string; data: string }[]
  expect(saved).toHaveLength(1)
  expect(saved[0]).toMatchObject({ name: 'Poster', data: `${baseURL}/faq` })
  const png = await page.request.get(`/api/qrcodes/${saved[0].id}/image?format=png`)
  expect(decode(await png.body())).toBe(`${baseURL}/faq`)

  await page.getByRole('button', { name: 'Start a new code' }).click()
  await expect(page.getByLabel('Website URL')).toHaveValue('')
  await page.getByLabel('Website URL').fill(`${baseURL}/pricing`)
  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code saved', { exact: true })).toBeVisible()
  res = await page.request.get('/api/qrcodes')
  saved = (await res.json()) as { id: number; name: string; data: string }[]
  expect(saved.map((c) => c.data).sort()).toEqual([`${baseURL}/faq`, `${baseURL}/pricing`])
})

test('on a phone the restyle preview stays in view while the controls scroll', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 667 })
  await signUp(page, uniqueEmail('restyle'))
  const destination = `${baseURL}/about`
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name: 'Phone card' },
  })
  expect(created.status()).toBe(201)
  await page.goto('/dashboard')
  await card(page, 'Phone card').getByRole('button', { name: 'Restyle' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restyle QR Code' })
  const preview = dialog.getByRole('img', { name: 'QR code preview' })
  await expect(preview).toBeVisible()
  // Scroll the dialog to its first controls, then to its last: the preview stays on screen.
  for (const control of [dialog.getByRole('radiogroup', { name: 'Body style' }), dialog.getByRole('button', { name: 'Save Style' })]) {
    await control.scrollIntoViewIfNeeded()
    const box = await preview.boundingBox()
    expect(box, 'the preview has a box').not.toBeNull()
    expect(box!.y).toBeGreaterThanOrEqual(0)
    expect(box!.y + box!.height).toBeLessThanOrEqual(667)
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

import { execFileSync } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { signUp } from '../support/accounts'

// GS1 Digital Link against the real binary (issue 38): a visitor makes a
// GS1 code whose downloaded PNG decodes to the Digital Link URI; the brand
// lists the product, recalls one lot on the Products page, and a scan of
// that lot lands on the recall notice while other lots still open the
// product's page.

/** What zbarimg reads in an image file; ZXingReader must read the same. */
function decode(file: string): string {
  const text = execFileSync('zbarimg', ['--raw', '-q', file]).toString().trim()
  expect(execFileSync('ZXingReader', ['-bytes', file]).toString().trim()).toBe(text)
  return text
}

/** A GTIN-13 no other run uses, with its GS1 check digit. */
function uniqueGtin13(): string {
  const body = `95${String(Date.now()).slice(-8)}${Math.floor(Math.random() * 100)
    .toString()
    .padStart(2, '0')}`
  let sum = 0
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1)
  return body + String((10 - (sum % 10)) % 10)
}

test('a GS1 code decodes to its Digital Link, and a recalled lot scans to the recall notice', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(90_000) // a generation, a download, two pages and three scans
  const gtin = uniqueGtin13()
  const uri = `${baseURL}/01/0${gtin}/10/B42`

  // The generator: GS1's check digit is checked as it is typed.
  await page.goto('/')
  const generator = page.locator('#qr-generator')
  await generator.getByRole('combobox', { name: 'QR code type' }).click()
  await page.getByRole('option', { name: 'GS1 Digital Link' }).click()
  const wrong = gtin.slice(0, -1) + String((Number(gtin.slice(-1)) + 1) % 10)
  await generator.getByLabel('GTIN').fill(wrong)
  await expect(generator.getByText(`The check digit should be ${gtin.slice(-1)}, not ${wrong.slice(-1)}`)).toBeVisible()
  await generator.getByLabel('GTIN').fill(gtin)
  await expect(generator.getByText(`Check digit ${gtin.slice(-1)} is correct (GTIN-13)`)).toBeVisible()
  await generator.getByLabel('Batch or lot (AI 10)').fill('B42')
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code generated', { exact: true })).toBeVisible()
  const downloading = page.waitForEvent('download')
  await generator.getByRole('button', { name: 'Download PNG' }).click()
  const file = testInfo.outputPath('gs1.png')
  await (await downloading).saveAs(file)
  expect(decode(file)).toBe(uri)

  // The brand lists the product; its lots open the product page.
  await signUp(page)
  await page.goto('/workspace/products')
  await page.getByLabel('GTIN').fill(gtin)
  await expect(page.getByText(`Check digit ${gtin.slice(-1)} is correct (GTIN-13)`)).toBeVisible()
  await page.getByLabel('Product name').fill('Oat cereal')
  await page.getByLabel('Default link').fill(`${baseURL}/faq`)
  await page.getByRole('button', { name: 'Add product' }).click()
  const card = page.getByRole('listitem').filter({ hasText: `GTIN 0${gtin}` })
  await expect(card.getByRole('heading', { name: 'Oat cereal' })).toBeVisible()
  await page.goto(uri)
  await expect(page).toHaveURL(`${baseURL}/faq`)

  // One lot is recalled in one step; its scans land on the recall notice.
  await page.goto('/workspace/products')
  await card.getByRole('textbox', { name: 'Lot', exact: true }).fill('B42')
  await card.getByLabel('Recall notice').fill(`${baseURL}/contact?recall=B42`)
  await card.getByRole('button', { name: 'Recall lot' }).click()
  await expect(page.getByText('Lot B42 recalled', { exact: true })).toBeVisible()
  await expect(card.getByText('Recalled')).toBeVisible()
  await page.goto(uri)
  await expect(page).toHaveURL(`${baseURL}/contact?recall=B42`)
  const other = await page.request.get(`${baseURL}/01/0${gtin}/10/B43`, { maxRedirects: 0 })
  expect(other.status()).toBe(307)
  expect(other.headers()['location']).toBe(`${baseURL}/faq`)
})

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Brand kits (issue 26 item 3): a design saved once from the generator is
// applied to a new code in one step, the default kit is preselected, and
// the files the code downloads as carry the kit's colours and scan.

interface Kit {
  id: number
  name: string
  fgColor: string
  dotShape: string
  cornerShape: string
  isDefault: boolean
}

const red = '#8B0000'

/** What zbarimg reads in a PNG; ZXingReader must read the same. */
function decode(png: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-kits-'))
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

/** How many pixels of a PNG are the kit's dark red, and how many are near black, decoded by the browser's own PNG decoder. */
async function countColours(page: Page, png: Buffer) {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    const ctx = canvas.getContext('2d')!
    ctx.drawImage(bitmap, 0, 0)
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height)
    let kitRed = 0
    let black = 0
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]]
      if (Math.abs(r - 0x8b) < 12 && g < 16 && b < 16) kitRed++
      if (r < 40 && g < 40 && b < 40) black++
    }
    return { kitRed, black }
  }, png.toString('base64'))
}

async function kits(page: Page) {
  const res = await page.request.get('/api/brand-kits')
  expect(res.status()).toBe(200)
  return (await res.json()) as Kit[]
}

/** The live preview's SVG, from its data URL. */
async function previewSvg(page: Page) {
  const src = (await page.getByRole('img', { name: 'QR code preview' }).getAttribute('src')) ?? ''
  const comma = src.indexOf(',')
  const data = src.slice(comma + 1)
  return src.slice(0, comma).endsWith(';base64') ? Buffer.from(data, 'base64').toString('utf8') : decodeURIComponent(data)
}

test('a design saved as a brand kit styles a new code in one step, and its download scans in the kit colours', async ({ page, baseURL }, testInfo) => {
  // Two generator journeys, three drawn files decoded; a loaded CI machine took it past 60 s.
  test.setTimeout(90_000)
  await signUp(page, uniqueEmail('kits'))
  await page.goto('/dashboard?create=true')
  await page.getByLabel('Website URL').fill(`${baseURL}/menu`)

  // A design: dark red rounded dots, curved eyes.
  await page.getByRole('tab', { name: 'Colors' }).click()
  const hex = page.getByRole('group', { name: 'QR code color' }).getByLabel('HEX')
  await hex.fill(red)
  await hex.press('Enter')
  await page.getByRole('radiogroup', { name: 'Body style' }).getByRole('radio', { name: 'Rounded', exact: true }).click()
  await page.getByRole('tab', { name: 'Edge and Center' }).click()
  await page.getByRole('radiogroup', { name: 'Border style' }).getByRole('radio', { name: 'Slightly rounded', exact: true }).click()

  await page.getByRole('button', { name: 'Save as brand kit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save as brand kit' })
  await dialog.getByLabel('Kit name').fill('Bistro')
  // The server's answer first: a refusal shows on the dialog's field, and
  // its status and body say why where a missing toast would not.
  const kitSaved = page.waitForResponse((r) => r.url().endsWith('/api/brand-kits') && r.request().method() === 'POST')
  await dialog.getByRole('button', { name: 'Save kit' }).click()
  const answer = await kitSaved
  expect(answer.status(), await answer.text()).toBe(201)
  await expect(page.getByText('Brand kit saved', { exact: true })).toBeVisible()
  const [kit] = await kits(page)
  expect(kit).toMatchObject({ name: 'Bistro', fgColor: red, dotShape: 'rounded', cornerShape: 'curve-square', isDefault: false })

  // A new code starts plain; choosing the kit applies its whole design.
  await page.goto('/dashboard?create=true')
  await page.getByLabel('Website URL').fill(`${baseURL}/menu-2`)
  await page.getByRole('tab', { name: 'Colors' }).click()
  const body = page.getByRole('radiogroup', { name: 'Body style' })
  await expect(body.getByRole('radio', { name: 'Square', exact: true })).toBeChecked()
  await expect(page.getByRole('group', { name: 'QR code color' }).getByLabel('HEX')).not.toHaveValue(red)
  await page.getByLabel('Brand kit').selectOption({ label: 'Bistro' })
  await expect(page.getByText('Brand kit “Bistro” applied', { exact: true })).toBeVisible()
  await expect(body.getByRole('radio', { name: 'Rounded', exact: true })).toBeChecked()
  await expect(page.getByRole('group', { name: 'QR code color' }).getByLabel('HEX')).toHaveValue(red)
  await expect.poll(async () => (await previewSvg(page)).includes(red)).toBe(true)

  await page.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code saved', { exact: true })).toBeVisible()
  // The file's answer first: a refusal (a busy server's 503) fails here with
  // its status and body, where a missing download would only time out.
  const fileAnswer = page.waitForResponse((r) => r.url().includes('/image?') && r.url().includes('download=1'))
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download PNG' }).click()
  const file = await fileAnswer
  expect(file.status(), await file.text()).toBe(200)
  const download = await downloading
  const path = testInfo.outputPath('kit.png')
  await download.saveAs(path)
  const png = readFileSync(path)
  expect(decode(png)).toBe(`${baseURL}/menu-2`)
  const colours = await countColours(page, png)
  expect(colours.kitRed).toBeGreaterThan(5000)
  expect(colours.black).toBe(0)

  // The saved code has the kit's style; its 50 mm print PNG at 300 dpi is 591 px wide and scans.
  const saved = (await (await page.request.get('/api/qrcodes')).json()) as { id: number; data: string; fgColor: string; dotShape: string }[]
  const code = saved.find((c) => c.data === `${baseURL}/menu-2`)
  expect(code).toMatchObject({ fgColor: red, dotShape: 'rounded' })
  const print = await page.request.get(`/api/qrcodes/${code!.id}/image?format=png&sizeMm=50&dpi=300`)
  expect(print.status()).toBe(200)
  const printPng = await print.body()
  expect(printPng.readUInt32BE(16)).toBe(591)
  expect(decode(printPng)).toBe(`${baseURL}/menu-2`)
  expect((await countColours(page, printPng)).kitRed).toBeGreaterThan(1000)
})

test('the default brand kit is set on the kits page and preselected for a new code', async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail('kits'))
  const made = await page.request.post('/api/brand-kits', { data: { name: 'Harbour', fgColor: '#0B3D91', dotShape: 'circle' } })
  expect(made.status()).toBe(201)

  await page.goto('/workspace/brand-kits')
  await expect(page.getByRole('heading', { name: 'Brand kits' })).toBeVisible()
  const list = page.getByRole('list', { name: 'Brand kits' })
  await list.getByRole('button', { name: 'Make default: Harbour' }).click()
  await expect(page.getByText('Harbour is the default brand kit', { exact: true })).toBeVisible()
  await expect(list.getByText('Default', { exact: true })).toBeVisible()
  expect((await kits(page))[0].isDefault).toBe(true)

  await list.getByRole('button', { name: 'Rename Harbour' }).click()
  const rename = page.getByRole('dialog', { name: 'Rename brand kit' })
  await rename.getByLabel('Kit name').fill('Harbour blue')
  await rename.getByRole('button', { name: 'Rename' }).click()
  await expect(list.getByText('Harbour blue')).toBeVisible()

  await page.goto('/dashboard?create=true')
  await expect(page.getByLabel('Brand kit')).toHaveValue(String((await kits(page))[0].id))
  await page.getByLabel('Website URL').fill(`${baseURL}/harbour`)
  await expect.poll(async () => (await previewSvg(page)).includes('#0B3D91')).toBe(true)

  // The restyle dialog applies a kit to a saved code in one step.
  const made2 = await page.request.post('/api/qrcodes', { multipart: { qrType: 'url', url: `${baseURL}/dock`, name: 'Dock sign' } })
  expect(made2.status()).toBe(201)
  await page.goto('/dashboard')
  const card = page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name: 'Dock sign', exact: true }) })
  await card.getByRole('button', { name: 'Restyle' }).click()
  const restyle = page.getByRole('dialog', { name: 'Restyle QR Code' })
  await restyle.getByLabel('Brand kit').selectOption({ label: 'Harbour blue (default)' })
  await expect(restyle.getByRole('radiogroup', { name: 'Body style' }).getByRole('radio', { name: 'Circle' })).toBeChecked()
  await restyle.getByRole('button', { name: 'Save Style' }).click()
  await expect(page.getByText('Code restyled', { exact: true })).toBeVisible()
  const restyled = (await (await page.request.get('/api/qrcodes')).json()) as { name: string; fgColor: string; dotShape: string }[]
  expect(restyled.find((c) => c.name === 'Dock sign')).toMatchObject({ fgColor: '#0B3D91', dotShape: 'circle' })

  page.once('dialog', (d) => void d.accept())
  await page.goto('/workspace/brand-kits')
  await page.getByRole('button', { name: 'Delete Harbour blue' }).click()
  await expect(page.getByText('Brand kit deleted', { exact: true })).toBeVisible()
  await expect(page.getByText('No brand kits yet.', { exact: false })).toBeVisible()
  expect(await kits(page)).toEqual([])
})

import { execFileSync } from 'node:child_process'
import { deflateSync } from 'node:zlib'
import { expect, test } from '@playwright/test'

// Issue 10 item 3: an Images code keeps the title typed after the file was
// picked, and the page its scan opens shows it.

/** A small valid PNG (a 32×32 orange square), made here so the test needs no fixture file. */
function orangePng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const size = 32
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [255, 140, 0]).flat())])
  const pixels = Buffer.concat(Array.from({ length: size }, () => row))
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function decode(file: string): string {
  const text = execFileSync('zbarimg', ['--raw', '-q', file]).toString().trim()
  expect(execFileSync('ZXingReader', ['-bytes', file]).toString().trim()).toBe(text)
  return text
}

test('an Images code with its title typed after the file scans to a page that shows the title', async ({ page }, testInfo) => {
  await page.goto('/')
  const generator = page.locator('#qr-generator')
  await generator.getByRole('combobox', { name: 'QR code type' }).click()
  await page.getByRole('option', { name: 'Images', exact: true }).click()

  // The file first, with no title yet; then the title and a description.
  await generator.getByLabel('Image file').setInputFiles({ name: 'shop.png', mimeType: 'image/png', buffer: orangePng() })
  await expect(generator.getByText('shop.png', { exact: true })).toBeVisible()
  await generator.getByLabel('Title').fill('Our new shop on Harbour Street')
  await generator.getByLabel('Description').fill('Open every day from 9 to 6.')
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code generated', { exact: true })).toBeVisible()

  const downloading = page.waitForEvent('download')
  await generator.getByRole('button', { name: 'Download PNG' }).click()
  const file = testInfo.outputPath('images.png')
  await (await downloading).saveAs(file)
  const target = decode(file)
  expect(target).toMatch(/\/images\/\d+$/)

  await page.goto(target)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our new shop on Harbour Street')
  await expect(page.getByText('Open every day from 9 to 6.')).toBeVisible()
  await expect(page.getByRole('img', { name: 'Our new shop on Harbour Street' })).toBeVisible()
})

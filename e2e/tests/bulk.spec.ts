import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { unzip } from '../support/files'

/** Decodes an SVG or PNG code with zbar, a decoder we did not write (SVGs drawn by rsvg-convert). */
function decode(file: Buffer, format: 'svg' | 'png'): string {
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-bulk-'))
  try {
    let png = join(dir, 'code.png')
    if (format === 'svg') {
      const svg = join(dir, 'code.svg')
      writeFileSync(svg, file)
      execFileSync('rsvg-convert', ['-w', '640', '-b', 'white', '-o', png, svg])
    } else {
      writeFileSync(png, file)
    }
    return execFileSync('zbarimg', ['--raw', '-q', '-Sbinary', png], { encoding: 'utf8' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the bulk page: 7 lines with one invalid, counters, toast, and one ZIP of SVGs that scan', async ({ page }) => {
  await signUp(page, uniqueEmail('bulk'))
  await page.goto('/bulk-generation')
  await expect(page.getByRole('heading', { name: 'Bulk QR Code Generation' })).toBeVisible()
  await expect(page.getByText('No QR codes generated yet.')).toBeVisible()

  const lines = [1, 2, 3, 4, 5, 6].map((n) => `https://example.com/menu/${n}`)
  lines.splice(3, 0, 'not a url')
  await page.getByLabel('Enter data (one item per line)').fill(lines.join('\n'))
  await expect(page.getByText('7 items')).toBeVisible()
  await page.getByRole('button', { name: 'Generate QR Codes' }).click()

  await expect(page.getByText('Generated 6 QR codes successfully. 1 failed.', { exact: true })).toBeVisible()
  await expect(page.getByTestId('bulk-success')).toHaveText('6')
  await expect(page.getByTestId('bulk-failed')).toHaveText('1')
  // The failed line shows the server's reason (issue 21).
  await expect(page.getByRole('list', { name: 'Generated QR codes' }).getByText('Please enter a valid URL', { exact: true })).toBeVisible()

  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download All QR Codes (6)' }).click()
  await expect(page.getByText('Downloading 6 QR codes.', { exact: true })).toBeVisible()
  const download = await downloading
  const files = unzip(readFileSync(await download.path()))
  expect([...files.keys()]).toEqual([1, 2, 3, 4, 5, 6].map((n) => `qr-code-${n}.svg`))
  const valid = lines.filter((l) => l !== 'not a url')
  for (const [i, name] of [...files.keys()].entries()) {
    expect(decode(files.get(name)!, 'svg')).toBe(valid[i])
  }
})

test('the bulk page reads the first column of an uploaded CSV', async ({ page }) => {
  await signUp(page, uniqueEmail('bulk'))
  await page.goto('/bulk-generation')
  await page.getByLabel('Upload a file (.csv or .txt)').setInputFiles({
    name: 'list.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Hello,first\n\nWorld,second\nAgain,third\n'),
  })
  await expect(page.getByLabel('Enter data (one item per line)')).toHaveValue('Hello\nWorld\nAgain')
  await expect(page.getByText('3 items')).toBeVisible()
  await page.getByRole('combobox', { name: 'QR Code Type' }).click()
  await page.getByRole('option', { name: 'Plain Text' }).click()
  await page.getByRole('button', { name: 'Generate QR Codes' }).click()
  await expect(page.getByText('Generated 3 QR codes successfully. 0 failed.', { exact: true })).toBeVisible()
})

test('a 50-row spreadsheet job: checked, saved with progress, and downloaded as one ZIP', async ({ page }) => {
  await signUp(page, uniqueEmail('bulk'))
  await page.goto('/bulk-generation')
  const rows = ['type,url,text,name,fileName']
  for (let i = 1; i <= 50; i++) {
    rows.push(i % 2 ? `url,https://example.com/p/${i},,Product ${i},label-${i}` : `text,,Badge ${i},Badge ${i},`)
  }
  rows.push('url,nota url,,Broken,')
  await page.getByLabel('Spreadsheet (.csv or .xlsx)').setInputFiles({ name: 'labels.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) })

  await page.getByRole('button', { name: 'Check file' }).click()
  await expect(page.getByText('50 of 51 rows ready; 1 with errors.')).toBeVisible()
  const errorRow = page.getByRole('table', { name: 'Rows with errors' }).getByRole('row').nth(1)
  await expect(errorRow).toContainText('52')
  await expect(errorRow).toContainText('url')
  await expect(errorRow).toContainText('Please enter a valid URL')

  await page.getByRole('button', { name: 'Save codes to my account' }).click()
  await expect(page.getByText('51 of 51 rows processed, 1 failed — done')).toBeVisible({ timeout: 30_000 })

  await page.getByLabel('Format').selectOption('png')
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download ZIP' }).click()
  const files = unzip(readFileSync(await (await downloading).path()))
  expect(files.size).toBe(52) // 50 images, manifest.csv, errors.csv
  expect(decode(files.get('label-1.png')!, 'png')).toBe('https://example.com/p/1')
  expect(decode(files.get('qr-code-50.png')!, 'png')).toBe('Badge 50')
  const manifest = files.get('manifest.csv')!.toString('utf8').trim().split('\n')
  expect(manifest).toHaveLength(51)
  expect(files.get('errors.csv')!.toString('utf8')).toContain('52,url,Please enter a valid URL')

  // The codes are in the account.
  const saved = (await (await page.request.get('/api/qrcodes')).json()) as unknown[]
  expect(saved).toHaveLength(50)
})

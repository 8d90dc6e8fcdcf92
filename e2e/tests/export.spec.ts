import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { parseCSV, unzip } from '../support/files'

// The exit guarantee (issue 25): Account Settings downloads the workspace's
// data, redirects included, as a ZIP from the real server; what was made and
// scanned is in it.
test.describe.configure({ timeout: 120_000 })
expect.configure({ timeout: 20_000 })

const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

type Exported = {
  WorkspaceName: string
  StaticCodes: { Name: string; QRType: string }[]
  DynamicCodes: { Name: string; ShortCode: string; Destination: string; ShortURL: string }[]
}

test('Download my data exports the codes made and the scans of the dynamic one', async ({ page, playwright, baseURL }) => {
  await signUp(page, uniqueEmail('export'))
  const destination = `${baseURL}/about`
  const made = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination, qrType: 'url', qrData: JSON.stringify({ url: destination }), name: 'Export poster' },
  })
  expect(made.status()).toBe(201)
  const poster = (await made.json()) as { id: number; shortCode: string; shortUrl: string }
  const saved = await page.request.post('/api/qrcodes', { multipart: { qrType: 'text', text: 'Hello', name: 'Export note' } })
  expect(saved.status()).toBe(201)

  // Two scans from a phone, which has none of the owner's cookies.
  const phone = await playwright.request.newContext({ userAgent: phoneUA })
  for (let i = 0; i < 2; i++) expect((await phone.get(poster.shortUrl, { maxRedirects: 0 })).status()).toBe(302)
  await phone.dispose()
  // Scans are stored in batches: wait until the code's own CSV holds both.
  await expect
    .poll(async () => parseCSV(await (await page.request.get(`/api/dynamic-qrcodes/${poster.id}/scans.csv`)).text()).length)
    .toBe(3)

  await page.goto('/workspace/export')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()])
  expect(download.suggestedFilename()).toMatch(/^squarely-export-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzip(await readFile(await download.path()))
  expect([...files.keys()]).toEqual(expect.arrayContaining(['codes.json', 'scans.csv', 'redirects/nginx.conf', 'redirects/Caddyfile', 'redirects/redirects.csv']))

  // codes.json: both codes, the dynamic one with its short link and destination.
  const codes = JSON.parse(files.get('codes.json')!.toString('utf8')) as Exported
  expect(codes.WorkspaceName).toBe('Personal')
  expect(codes.StaticCodes.map((c) => [c.Name, c.QRType])).toEqual([['Export note', 'text']])
  expect(codes.DynamicCodes.map((c) => [c.Name, c.ShortCode, c.Destination, c.ShortURL])).toEqual([
    ['Export poster', poster.shortCode, destination, poster.shortUrl],
  ])

  // scans.csv: the two scans, each under the code's short code, from an iPhone.
  const [header, ...scans] = parseCSV(files.get('scans.csv')!.toString('utf8'))
  expect(header).toEqual(['short_code', 'scanned_at', 'device_type', 'os', 'browser', 'referrer', 'visitor', 'is_bot', 'country'])
  expect(scans).toHaveLength(2)
  for (const scan of scans) {
    const row = Object.fromEntries(header.map((column, i) => [column, scan[i]]))
    expect(row).toMatchObject({ short_code: poster.shortCode, device_type: 'mobile', os: 'iOS', is_bot: 'false' })
    expect(Date.now() - Date.parse(row.scanned_at)).toBeLessThan(10 * 60_000)
  }

  // redirects.csv: the forwarding code, ready for another server.
  expect(parseCSV(files.get('redirects/redirects.csv')!.toString('utf8'))).toEqual([
    ['short_code', 'destination', 'short_url'],
    [poster.shortCode, destination, poster.shortUrl],
  ])
})

import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { countItems, fileToInput, parseItems } from './lib/parse-input'
import { BATCH_SIZE, countResults, runBulk, svgEntries } from './lib/run-bulk'
import { generateBulkItem } from './api/generate-bulk-item'
import { crc32, dosDateTime, zipStore } from './lib/zip'

describe('bulk input parsing', () => {
  it('keeps trimmed non-blank lines in order', () => {
    const text = '  https://a.example  \r\n\n \t\nhttps://b.example\rlast'
    expect(parseItems(text)).toEqual(['https://a.example', 'https://b.example', 'last'])
    expect(countItems(text)).toBe(3)
  })

  it('counts like parseItems for any mix of blanks and endings', () => {
    for (const text of ['', ' ', '\n', 'a', 'a\n', '\na\n\nb', ' a \r\n b ', 'x\r\r\ny\n \n']) {
      expect(countItems(text)).toBe(parseItems(text).length)
    }
  })

  it('uses only the first comma-separated column of a CSV file', () => {
    expect(fileToInput('list.CSV', 'https://a.example,Menu\n\n https://b.example ,Door,x\n')).toBe('https://a.example\nhttps://b.example')
    expect(fileToInput('list.txt', 'a,b\nc')).toBe('a,b\nc')
  })

  it('skips a CSV header row', () => {
    expect(fileToInput('list.csv', 'url,name\nhttps://a.example,Menu\n')).toBe('https://a.example')
    expect(fileToInput('list.csv', '\uFEFF"Data",x\nfirst\nsecond')).toBe('first\nsecond')
    expect(fileToInput('list.csv', 'Text\nhello')).toBe('hello')
    expect(fileToInput('list.csv', 'https://a.example\nurl')).toBe('https://a.example\nurl')
    expect(fileToInput('list.txt', 'url\nhttps://a.example')).toBe('url\nhttps://a.example')
  })
})

describe('bulk runs', () => {
  it('sends batches of 5 and reports after each batch', async () => {
    let running = 0
    let peak = 0
    const seen: number[] = []
    const items = Array.from({ length: 12 }, (_, i) => `item ${i + 1}`)
    const results = await runBulk(
      items,
      async (item, id) => {
        running++
        peak = Math.max(peak, running)
        await new Promise((r) => setTimeout(r, 1))
        running--
        return id % 4 === 0 ? { id, data: item, status: 'error', error: 'Network error' } : { id, data: item, status: 'success', qrCode: `<svg>${id}</svg>` }
      },
      (so) => seen.push(so.length),
    )
    expect(peak).toBe(BATCH_SIZE)
    expect(seen).toEqual([5, 10, 12])
    expect(countResults(results)).toEqual({ success: 9, failed: 3 })
    expect(results.map((r) => r.id)).toEqual(items.map((_, i) => i + 1))
    // Files are numbered from 1 over the successes.
    expect(svgEntries(results).map((f) => f.name)).toEqual(Array.from({ length: 9 }, (_, i) => `qr-code-${i + 1}.svg`))
  })
})

describe('store-only ZIP', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
  })

  it('dates every entry with the time it is made', () => {
    const when = new Date(2026, 10, 26, 9, 41, 37)
    const zip = zipStore([{ name: 'a.svg', data: new TextEncoder().encode('<svg/>') }], when)
    const view = new DataView(zip.buffer)
    const centralAt = view.getUint32(zip.length - 22 + 16, true)
    for (const [time, date] of [
      [10, 12],
      [centralAt + 12, centralAt + 14],
    ]) {
      const t = view.getUint16(time, true)
      const d = view.getUint16(date, true)
      expect([(d >> 9) + 1980, (d >> 5) & 15, d & 31, t >> 11, (t >> 5) & 63, (t & 31) * 2]).toEqual([2026, 11, 26, 9, 41, 36])
    }
    // Without a date: now, not 1980.
    expect(dosDateTime(new Date()).date >> 9).toBe(new Date().getFullYear() - 1980)
  })

  it('lays out local headers, data, a central directory and its end', () => {
    const enc = new TextEncoder()
    const zip = zipStore([
      { name: 'qr-code-1.svg', data: enc.encode('<svg>1</svg>') },
      { name: 'qr-code-2.svg', data: enc.encode('<svg>22</svg>') },
    ])
    const view = new DataView(zip.buffer)
    expect(view.getUint32(0, true)).toBe(0x04034b50)
    const end = zip.length - 22
    expect(view.getUint32(end, true)).toBe(0x06054b50)
    expect(view.getUint16(end + 10, true)).toBe(2)
    const centralAt = view.getUint32(end + 16, true)
    expect(view.getUint32(centralAt, true)).toBe(0x02014b50)
    // The second entry's local header is where the directory says.
    const secondCentral = centralAt + 46 + 'qr-code-1.svg'.length
    const secondLocal = view.getUint32(secondCentral + 42, true)
    expect(view.getUint32(secondLocal, true)).toBe(0x04034b50)
    const nameLen = view.getUint16(secondLocal + 26, true)
    const dataAt = secondLocal + 30 + nameLen
    expect(new TextDecoder().decode(zip.slice(dataAt, dataAt + 13))).toBe('<svg>22</svg>')
    expect(view.getUint32(secondLocal + 14, true)).toBe(crc32(enc.encode('<svg>22</svg>')))
  })
})

describe('BulkGenerationPage', () => {
  it('generates each line, counts successes and failures, and toasts the result', async () => {
    const bodies: Record<string, unknown>[] = []
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/bulk-generate-qrcode': (init) => {
        const body = JSON.parse(String(init?.body)) as { data: string }
        bodies.push(body)
        if (body.data === 'not a url') return json({ message: 'Please enter a valid URL' }, 400)
        if (body.data === 'offline') throw new TypeError('Failed to fetch')
        return json({ qrCode: `<svg>${body.data}</svg>` })
      },
    })
    renderApp('/bulk-generation')
    expect(await screen.findByRole('heading', { name: 'Bulk QR Code Generation' }, { timeout: 5000 })).toBeInTheDocument()
    expect(screen.getByText('No QR codes generated yet.')).toBeInTheDocument()
    const generate = screen.getByRole('button', { name: 'Generate QR Codes' })
    expect(generate).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Download All QR Codes (0)' })).toBeDisabled()

    const lines = ['https://a.example', 'not a url', '', 'https://b.example', 'offline', 'https://c.example', 'https://d.example', 'https://e.example']
    fireEvent.change(screen.getByLabelText('Enter data (one item per line)'), { target: { value: lines.join('\n') } })
    expect(await screen.findByText('7 items', undefined, { timeout: 5000 })).toBeInTheDocument()
    await userEvent.click(generate)

    expect(await screen.findByText('Generated 5 QR codes successfully. 2 failed.', undefined, { timeout: 10_000 })).toBeInTheDocument()
    expect(screen.getByText('Bulk generation complete')).toBeInTheDocument()
    expect(screen.getByTestId('bulk-success')).toHaveTextContent('5')
    expect(screen.getByTestId('bulk-failed')).toHaveTextContent('2')
    expect(screen.getByText('Please enter a valid URL')).toBeInTheDocument()
    expect(screen.getByText('Network error')).toBeInTheDocument()
    expect(bodies[0]).toEqual({ qrType: 'url', qrData: { url: 'https://a.example' }, fgColor: '#000000', bgColor: '#FFFFFF', data: 'https://a.example' })
    expect(screen.getByRole('button', { name: 'Download All QR Codes (5)' })).toBeEnabled()
  }, 30_000)

  it("makes a spreadsheet job's dynamic codes on the chosen verified domain", async () => {
    const forms: FormData[] = []
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () =>
        json([
          { id: 7, domain: 'go.shop.example', status: 'verified', pointing: true },
          { id: 9, domain: 'new.shop.example', status: 'verified', pointing: false },
          { id: 8, domain: 'later.shop.example', status: 'pending', pointing: false },
        ]),
      'POST /api/bulk-jobs': (init) => {
        forms.push(init?.body as FormData)
        return json({ id: 3, status: 'queued', fileName: 'codes.csv', total: 1, processed: 0, failed: 0, domainId: 7, domain: 'go.shop.example' }, 202)
      },
      'GET /api/bulk-jobs/3': () => json({ id: 3, status: 'done', fileName: 'codes.csv', total: 1, processed: 1, failed: 0, domainId: 7 }),
    })
    renderApp('/bulk-generation')
    const select = await screen.findByLabelText('Domain of the dynamic codes', undefined, { timeout: 5000 })
    // Only verified domains that point here are offered, after the base URL.
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Squarely (default)', 'go.shop.example'])
    await userEvent.upload(screen.getByLabelText('Spreadsheet (.csv or .xlsx)'), new File(['url,dynamic\nhttps://a.example,true\n'], 'codes.csv'))
    await userEvent.selectOptions(select, 'go.shop.example')
    await userEvent.click(screen.getByRole('button', { name: 'Save codes to my account' }))
    expect(await screen.findByText(/1 of 1 row processed/, undefined, { timeout: 5000 })).toBeInTheDocument()
    expect(forms).toHaveLength(1)
    expect(forms[0].get('domainId')).toBe('7')
    expect(forms[0].get('dryRun')).toBeNull()
  }, 30_000)

  it('updates existing codes from a spreadsheet: the dry run by row, then the job and its undo', async () => {
    const forms: FormData[] = []
    let polls = 0
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () => json([]),
      'GET /api/tags': () => json([{ id: 4, name: 'Spring', color: '#112233' }]),
      'GET /api/folders': () => json([]),
      'POST /api/codes/bulk-edit/sheet': (init) => {
        const form = init?.body as FormData
        forms.push(form)
        return form.get('dryRun') === 'true'
          ? json({
              selected: 3,
              changing: 1,
              rows: [{ row: 2, id: 'd_1', name: 'Lunch', shortCode: 'abc', before: { tags: [] }, after: { tags: [4] } }],
              failures: [
                { row: 3, id: 'nosuch', reason: 'No code of this workspace has this short code' },
                { row: 4, id: 'abc', reason: 'Row 2 already names this code' },
              ],
            })
          : json({ id: 6, total: 1, failures: [] }, 202)
      },
      'GET /api/codes/bulk-edit/6': () =>
        json({ id: 6, status: polls++ > 0 ? 'done' : 'running', total: 1, processed: 1, failed: 0, createdAt: '2026-11-29T10:00:00Z', finishedAt: null, undoUntil: '2026-11-30T10:00:00Z' }),
      'POST /api/codes/bulk-edit/6/undo': () => json({ id: 6, status: 'undone', restored: 1, skipped: [] }),
    })
    renderApp('/bulk-generation')
    const input = await screen.findByLabelText('Spreadsheet of changes (.csv or .xlsx)', undefined, { timeout: 5000 })
    const file = new File(['shortCode,tags\nabc,Spring\nnosuch,Spring\nabc,\n'], 'changes.csv')
    await userEvent.upload(input, file)
    const section = screen.getByRole('region', { name: 'Update existing codes from a spreadsheet' })
    await userEvent.click(within(section).getByRole('button', { name: 'Preview changes' }))
    expect(await within(section).findByTestId('bulk-edit-summary')).toHaveTextContent('3 rows selected: 1 will change, 2 will fail.')
    expect(within(section).getByRole('row', { name: /Lunch/ })).toHaveTextContent('Row 2')
    expect(within(section).getByRole('row', { name: /Lunch/ })).toHaveTextContent('Spring')
    expect(within(section).getByText(/Row 3, nosuch: No code of this workspace has this short code/)).toBeInTheDocument()
    expect(forms[0].get('dryRun')).toBe('true')
    expect(forms[0].get('file')).toBeInstanceOf(File)

    await userEvent.click(within(section).getByRole('button', { name: 'Apply to 1 code' }))
    expect(await within(section).findByText('Done: 1 changed, 0 failed.', undefined, { timeout: 5000 })).toBeInTheDocument()
    expect(forms).toHaveLength(2)
    expect(forms[1].get('dryRun')).toBeNull()
    await userEvent.click(within(section).getByRole('button', { name: 'Undo' }))
    expect(await within(section).findByTestId('bulk-edit-undone')).toHaveTextContent('Restored 1 code.')
  }, 30_000)

  it('stays quick with 10,000 lines and draws only the rows in view', async () => {
    stubFetch({ 'GET /api/user': () => json(alice), 'POST /api/bulk-generate-qrcode': () => json({ qrCode: '<svg/>' }) })
    renderApp('/bulk-generation')
    const area = await screen.findByLabelText('Enter data (one item per line)', undefined, { timeout: 5000 })
    const lines = Array.from({ length: 10_000 }, (_, i) => `https://example.com/${i}`).join('\n')
    fireEvent.change(area, { target: { value: lines } })
    expect(await screen.findByText('10000 items', undefined, { timeout: 5000 })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Generate QR Codes' }))
    await waitFor(() => expect(screen.getByTestId('bulk-success')).toHaveTextContent('10000'), { timeout: 30_000 })
    expect(screen.getAllByRole('listitem').length).toBeLessThan(40)
  }, 60_000)
})

describe('generateBulkItem', () => {
  it('completes a bare address as the generator does and keeps the server reason of a failure', async () => {
    const sent: string[] = []
    stubFetch({
      'POST /api/bulk-generate-qrcode': (init) => {
        const { data } = JSON.parse(String(init?.body)) as { data: string }
        sent.push(data)
        return data === 'not a url' ? json({ message: 'Please enter a valid URL', errors: { data: 'Please enter a valid URL' } }, 400) : json({ qrCode: '<svg/>' })
      },
    })
    const colours = { fgColor: '#000000', bgColor: '#FFFFFF' }
    expect(await generateBulkItem('example.com/c', 1, { qrType: 'url', ...colours })).toMatchObject({ status: 'success', data: 'https://example.com/c' })
    expect(await generateBulkItem('not a url', 2, { qrType: 'url', ...colours })).toMatchObject({
      status: 'error',
      error: 'Failed to generate QR code',
      reason: 'Please enter a valid URL',
    })
    expect(await generateBulkItem('example.com/c', 3, { qrType: 'text', ...colours })).toMatchObject({ status: 'success', data: 'example.com/c' })
    expect(sent).toEqual(['https://example.com/c', 'not a url', 'example.com/c'])
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { rangeQuery, type RangeChoice } from './api/queries'
import type { ScanReport, UserAnalytics } from './api/types'
import { niceMax } from './components/charts'

const analytics: UserAnalytics = {
  overview: { totalQrCodes: 5, totalScans: 17, totalDownloads: 9, totalGenerations: 23, staticQrCodes: 3, dynamicQrCodes: 2 },
  qrTypeDistribution: { url: 4, contact: 1 },
  recentActivity: { generations: 11, downloads: 4 },
  topPerformingQrCodes: [{ id: 7, name: 'Shop front', type: 'url', downloads: 6, generations: 8 }],
  dynamicQrPerformance: [
    { id: 3, name: 'Menu card', scans: 15 },
    { id: 5, name: 'Poster', scans: 2 },
  ],
}

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ start: new Date(Date.UTC(2026, 10, i + 1)).toISOString(), scans: i === n - 1 ? 5 : 0 }))

const codeAnalytics = (over: Partial<ScanReport> = {}): ScanReport => ({
  from: '2026-11-01T00:00:00Z',
  to: '2026-12-01T00:00:00Z',
  timeZone: 'UTC',
  granularity: 'day',
  bots: false,
  scans: 15,
  totalScans: 18,
  humanScans: 15,
  botScans: 3,
  uniqueVisitors: 9,
  previous: { from: '2026-10-02T00:00:00Z', to: '2026-11-01T00:00:00Z', scans: 10 },
  series: days(30),
  peakHours: Array.from({ length: 24 }, (_, h) => (h === 9 ? 15 : 0)),
  countries: [
    { country: 'DE', scans: 10 },
    { country: 'US', scans: 4 },
  ],
  unknownCountry: 1,
  regions: [],
  cities: [],
  citiesEnabled: false,
  devices: { mobile: 12, desktop: 3 },
  os: { iOS: 8, Android: 4, Windows: 3 },
  browsers: { Safari: 8, Chrome: 7 },
  referrers: [{ referrer: 'https://news.example.com', count: 4 }],
  routes: [{ route: 'default', name: 'Destination', scans: 15 }],
  attribution: 'This site or product includes IP2Location LITE data available from https://lite.ip2location.com.',
  ...over,
})

/** The URL the dialog asks for a code ('all': the account) and a range choice. */
const reportUrl = (id: number | 'all', choice: Partial<RangeChoice> = {}) =>
  (id === 'all' ? '/api/analytics?' : `/api/dynamic-qrcodes/${id}/analytics?`) + rangeQuery({ preset: '30d', bots: false, ...choice })

const dynamicRecord = (id: number, name: string) => ({
  id,
  name,
  qrType: 'url',
  qrMode: 'dynamic',
  data: `http://localhost/d/code${id}`,
  destination: 'https://example.com',
  shortCode: `code${id}`,
  shortUrl: `http://localhost/d/code${id}`,
  scanCount: 0,
  lastScannedAt: null,
  isPaused: false,
  pausedAt: null,
  createdAt: '2026-11-21T08:00:00Z',
  updatedAt: '2026-11-21T08:00:00Z',
})

const dynamicList = [dynamicRecord(3, 'Menu card'), dynamicRecord(5, 'Poster')]

function stub(handlers: Parameters<typeof stubFetch>[0]) {
  return stubFetch({
    'GET /api/user': () => json(alice),
    'GET /api/qrcodes': () => json([]),
    'GET /api/dynamic-qrcodes': () => json(dynamicList),
    'GET /api/dynamic-qrcodes/paused': () => json([]),
    'GET /api/trial-status': () => json({ isActive: false, hasExpired: false, daysRemaining: 0, subscriptionStatus: 'active', dynamicQRUsed: 2, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    'GET /api/user-analytics': () => json(analytics),
    [`GET ${reportUrl(3)}`]: () => json(codeAnalytics()),
    [`GET ${reportUrl(5)}`]: () => json(codeAnalytics({ scans: 2, humanScans: 2, uniqueVisitors: 1, botScans: 0, referrers: [] })),
    ...handlers,
  })
}

async function openAnalytics() {
  await userEvent.click(await screen.findByRole('button', { name: 'Analytics' }))
  return screen.findByRole('dialog', { name: 'Analytics Dashboard' })
}

describe('Analytics Dashboard', () => {
  it('shows the overview, types, top codes and the top dynamic code in detail', async () => {
    stub({})
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    const total = await within(dialog).findByText('Total Generations')
    expect(total.closest('li')).toHaveTextContent('23')
    expect(within(dialog).getByText('11 in the last 30 days')).toBeInTheDocument()
    expect(within(dialog).getByText('Website')).toBeInTheDocument()
    expect(within(dialog).getByText('Shop front')).toBeInTheDocument()

    expect(await within(dialog).findByText('Unique visitors')).toBeInTheDocument()
    expect(within(dialog).getByText('Unique visitors').nextSibling).toHaveTextContent('9')
    expect(within(dialog).getByText('Bot scans').nextSibling).toHaveTextContent('3')
    expect(within(dialog).getByText('https://news.example.com')).toBeInTheDocument()
    expect(within(dialog).getByText('12 · 80%')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/dynamic-qrcodes/3/scans.csv')
    expect(within(dialog).getByRole('figure', { name: 'Scans per day: 5 in 30 days' })).toBeInTheDocument()
    expect(within(dialog).getByText('+50% on the previous period (10)')).toBeInTheDocument()
    const countries = within(dialog).getByRole('table', { name: 'Scans by country' })
    expect(within(countries).getByText('Germany').closest('td')?.nextSibling).toHaveTextContent('10')
    expect(within(countries).getByText('Unknown').closest('td')?.nextSibling).toHaveTextContent('1')
    expect(within(dialog).getByText(/IP2Location LITE data.*Map shapes: Natural Earth/)).toBeInTheDocument()
    // Beside the table, the world map shades the same countries.
    const map = await within(dialog).findByRole('group', { name: 'World map of scans by country' })
    expect(within(map).getByRole('img', { name: 'Germany: 10 scans' })).toBeInTheDocument()
    expect(within(map).getByRole('img', { name: 'United States: 4 scans' })).toBeInTheDocument()
    expect(within(dialog).getByRole('figure', { name: 'Scans by hour of day: 15 in 24 hours' })).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Download countries CSV' })).toHaveAttribute('href', reportUrl(3).replace('/analytics?', '/breakdown.csv?by=country&'))
    expect(within(dialog).getByRole('link', { name: 'PDF report' })).toHaveAttribute('href', reportUrl(3).replace('/analytics?', '/report.pdf?'))
  })

  it('shows GS1 scans by product, GTIN and lot once there are any', async () => {
    stub({
      'GET /api/gs1/analytics': () =>
        json({
          from: '2026-10-31',
          to: '2026-11-29',
          scans: [
            { gtin: '09506000134352', name: 'Tomato soup', lot: 'B42', linkType: 'gs1:recallStatus', scans: 1204 },
            { gtin: '09520123456788', name: '', lot: '', linkType: 'gs1:defaultLink', scans: 3 },
            { gtin: '09506000134352', name: 'Tomato soup', lot: '(other lots)', linkType: 'gs1:defaultLink', scans: 2, otherLots: true },
          ],
          otherRows: 12,
          otherScans: 15,
        }),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    const table = await within(dialog).findByRole('table', { name: 'GS1 scans by GTIN and lot' })
    const recall = within(table).getByText('B42').closest('tr')
    expect(recall).toHaveTextContent('Tomato soup09506000134352B42gs1:recallStatus1,204')
    const unlisted = within(table).getByText('09520123456788').closest('tr')
    expect(unlisted).toHaveTextContent('—09520123456788—gs1:defaultLink3')
    // The lots past the day's bound, together; and what the answer left off.
    expect(within(table).getByText('Other lots').closest('tr')).toHaveTextContent('Tomato soup09506000134352Other lotsgs1:defaultLink2')
    expect(within(table).getByText('12 more rows').closest('tr')).toHaveTextContent('12 more rows15')
  })

  it('shows no GS1 panel to a workspace without GS1 scans', async () => {
    let answered = false
    stub({
      'GET /api/gs1/analytics': () => {
        answered = true
        return json({ from: '2026-10-31', to: '2026-11-29', scans: [] })
      },
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await within(dialog).findByText('Total Generations')
    await waitFor(() => expect(answered).toBe(true))
    await new Promise((r) => setTimeout(r, 50))
    expect(within(dialog).queryByRole('heading', { name: /GTIN and lot/ })).not.toBeInTheDocument()
  })

  it('says how to turn cities on without a city database', async () => {
    stub({})
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByText(/SQUARELY_GEOIP_CITY_DB to a city database/)).toBeInTheDocument()
    expect(within(dialog).queryByRole('table', { name: 'Scans by city' })).not.toBeInTheDocument()
  })

  it('shows regions and cities with a city database, with their CSVs', async () => {
    stub({
      [`GET ${reportUrl(3)}`]: () =>
        json(
          codeAnalytics({
            citiesEnabled: true,
            regions: [{ country: 'DE', region: 'Bavaria', scans: 7 }],
            cities: [
              { country: 'DE', region: 'Bavaria', city: 'Munich', scans: 6 },
              { country: 'SE', region: '', city: 'Linköping', scans: 1 },
            ],
          }),
        ),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    const cities = await within(dialog).findByRole('table', { name: 'Scans by city' })
    expect(within(cities).getByText('Munich, Bavaria, Germany').nextSibling).toHaveTextContent('6')
    expect(within(cities).getByText('Linköping, Sweden').nextSibling).toHaveTextContent('1')
    const regions = within(dialog).getByRole('table', { name: 'Scans by region' })
    expect(within(regions).getByText('Bavaria, Germany').nextSibling).toHaveTextContent('7')
    expect(within(dialog).getByRole('link', { name: 'Download cities CSV' })).toHaveAttribute('href', reportUrl(3).replace('/analytics?', '/breakdown.csv?by=city&'))
    expect(within(dialog).queryByText(/SQUARELY_GEOIP_CITY_DB/)).not.toBeInTheDocument()
  })

  it('shares the shown code: a link made with an expiry and a password, its URL shown, listed and revoked', async () => {
    const links: Record<string, unknown>[] = []
    let sent: Record<string, unknown> | undefined
    const mock = stub({
      'GET /api/tags': () => json([{ id: 4, name: 'Spring', color: '' }]),
      'GET /api/folders': () => json([]),
      'GET /api/share-links': () => json(links),
      'POST /api/share-links': (init) => {
        sent = JSON.parse(String(init?.body)) as Record<string, unknown>
        const link = { id: 9, tokenHint: 'AbCdEf', scope: { codeId: 3 }, scopeName: 'Menu card', protected: true, expiresAt: '2026-12-08T00:00:00Z', expired: false, createdAt: '2026-12-01T00:00:00Z' }
        links.push(link)
        return json({ ...link, token: 'AbCdEf' + 'x'.repeat(37), url: 'http://localhost/s/AbCdEf' + 'x'.repeat(37) }, 201)
      },
      'DELETE /api/share-links/9': () => {
        links.pop()
        return new Response(null, { status: 204 })
      },
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Share' }))
    const share = await screen.findByRole('dialog', { name: 'Share analytics' })
    expect(within(share).getByLabelText('What to share')).toHaveValue('code:3')
    expect(within(share).getByRole('option', { name: 'Tag: Spring' })).toBeInTheDocument()
    expect(await within(share).findByText('No share links yet.')).toBeInTheDocument()
    await userEvent.selectOptions(within(share).getByLabelText('Link expires'), 'In 7 days')
    await userEvent.type(within(share).getByLabelText('Password (optional)'), 'open sesame')
    await userEvent.click(within(share).getByRole('button', { name: 'Create link' }))
    expect(await within(share).findByLabelText(/Your link/)).toHaveValue('http://localhost/s/AbCdEf' + 'x'.repeat(37))
    expect(sent?.scope).toEqual({ codeId: 3 })
    expect(sent?.password).toBe('open sesame')
    expect(typeof sent?.expiresAt).toBe('string')
    const item = await within(share).findByText('Code Menu card')
    expect(item.closest('li')).toHaveTextContent('password')
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    await userEvent.click(within(share).getByRole('button', { name: /^Revoke the link Code Menu card/ }))
    expect(await within(share).findByText('No share links yet.')).toBeInTheDocument()
    expect(mock).toHaveBeenCalledWith('/api/share-links/9', expect.objectContaining({ method: 'DELETE' }))
  })

  it('lets a viewer see the share links but not make or revoke them', async () => {
    stub({
      'GET /api/user': () => json({ ...alice, workspace: { id: 1, name: 'Team', role: 'viewer' } }),
      'GET /api/tags': () => json([]),
      'GET /api/folders': () => json([]),
      'GET /api/share-links': () =>
        json([{ id: 2, tokenHint: 'QwErTy', scope: { workspace: true }, scopeName: '', protected: false, expiresAt: null, expired: false, createdAt: '2026-12-01T00:00:00Z' }]),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Share' }))
    const share = await screen.findByRole('dialog', { name: 'Share analytics' })
    expect(await within(share).findByText('All dynamic codes')).toBeInTheDocument()
    expect(within(share).queryByRole('button', { name: 'Create link' })).not.toBeInTheDocument()
    expect(within(share).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument()
  })

  it('shows a code with rules and a split its routes by the names the owner gave them, with the CSV', async () => {
    const routes = [
      { route: 'rule:0', name: 'Rule 1: iOS', scans: 6 },
      { route: 'split:0', name: 'Variant A 50%', scans: 3 },
      { route: 'split:1', name: 'Variant B 50%', scans: 1 },
      { route: 'default', name: 'Destination', scans: 0 },
    ]
    stub({ [`GET ${reportUrl(3)}`]: () => json(codeAnalytics({ routes })) })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    const table = await within(dialog).findByRole('table', { name: 'Scans by route' })
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => Array.from(tr.children, (cell) => cell.textContent))
    expect(rows).toEqual([
      ['Rule 1: iOS', '6', '60%', ''],
      ['Variant A 50%', '3', '30%', '75%'],
      ['Variant B 50%', '1', '10%', '25%'],
      ['Destination', '0', '0%', ''],
    ])
    expect(within(dialog).getByRole('img', { name: 'Rule 1: iOS 60%, Variant A 50% 30%, Variant B 50% 10%, Destination 0%' })).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Download routes CSV' })).toHaveAttribute('href', reportUrl(3).replace('/analytics?', '/breakdown.csv?by=route&'))
    expect(dialog).not.toHaveTextContent('rule:0')
  })

  it('shows no routes for a code whose scans all went to its destination', async () => {
    stub({})
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByText('Unique visitors')).toBeInTheDocument()
    expect(within(dialog).queryByRole('table', { name: 'Scans by route' })).not.toBeInTheDocument()
  })

  it('asks for the chosen range, the bots and the whole account', async () => {
    const mock = stub({
      [`GET ${reportUrl(3, { preset: '7d' })}`]: () => json(codeAnalytics({ scans: 4, previous: { from: '', to: '', scans: 8 } })),
      [`GET ${reportUrl(3, { preset: '7d', bots: true })}`]: () => json(codeAnalytics({ scans: 6, bots: true, previous: null })),
      [`GET ${reportUrl('all', { preset: '7d', bots: true })}`]: () => json(codeAnalytics({ scans: 40, bots: true, previous: null })),
      [`GET ${reportUrl('all', { preset: 'custom', from: '2026-10-01', to: '2026-10-31', bots: true })}`]: () => json(codeAnalytics({ scans: 77, bots: true })),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await within(dialog).findByText('Unique visitors')
    await userEvent.click(within(dialog).getByRole('button', { name: '7 days' }))
    expect(await within(dialog).findByText('-50% on the previous period (8)')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByLabelText('Include bots'))
    await waitFor(() => expect(within(dialog).getByText('Scans').nextSibling).toHaveTextContent('6'))
    await userEvent.selectOptions(within(dialog).getByLabelText('QR code'), 'All dynamic codes')
    await waitFor(() => expect(within(dialog).getByText('Scans').nextSibling).toHaveTextContent('40'))
    expect(within(dialog).queryByRole('link', { name: 'Download CSV' })).not.toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Custom' }))
    expect(await within(dialog).findByText('Pick the first and last day of the range.')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('From'), '2026-10-01')
    await userEvent.type(within(dialog).getByLabelText('To'), '2026-10-31')
    await waitFor(() => expect(within(dialog).getByText('Scans').nextSibling).toHaveTextContent('77'))
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
    expect(mock.mock.calls.map(([url]) => String(url))).toContain(`/api/analytics?from=2026-10-01&to=2026-10-31&tz=${encodeURIComponent(tz)}&bots=true`)
  })

  it('shows one country on a click on its name, and every country again from the chip', async () => {
    const retention = 'Scans before 2026-11-20 are not kept by country: choose a range from that day on'
    const mock = stub({
      [`GET ${reportUrl(3, { country: 'DE' })}`]: () => json(codeAnalytics({ scans: 10, country: 'DE', countries: [{ country: 'DE', scans: 10 }], unknownCountry: 0 })),
      [`GET ${reportUrl(3, { country: 'unknown' })}`]: () => json({ message: retention, errors: { country: retention } }, 400),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    const table = await within(dialog).findByRole('table', { name: 'Scans by country' })
    await userEvent.click(within(table).getByRole('button', { name: 'Show only scans from Germany' }))
    const chip = await within(dialog).findByRole('button', { name: 'Only Germany: show every country' })
    await waitFor(() => expect(within(dialog).getByText('Human scans').nextSibling).toHaveTextContent('10'))
    expect(within(dialog).getByRole('table', { name: 'Scans by country' })).not.toHaveTextContent('United States')
    expect(within(dialog).queryByRole('button', { name: /Show only scans from/ })).not.toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Download countries CSV' })).toHaveAttribute('href', expect.stringContaining('country=DE'))
    await userEvent.click(chip)
    await within(dialog).findByText('United States')
    // Scans no country was found for, which retention no longer holds.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show only scans from Unknown' }))
    expect(await within(dialog).findByText(retention)).toBeInTheDocument()
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to load analytics data')
    expect(mock.mock.calls.map(([url]) => String(url))).toContain(reportUrl(3, { country: 'DE' }))
  })

  it('reads the open view again within 5 seconds', { timeout: 12_000 }, async () => {
    let scans = 15
    stub({ [`GET ${reportUrl(3)}`]: () => json(codeAnalytics({ scans, humanScans: scans })) })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await waitFor(() => expect(within(dialog).getByText('Human scans').nextSibling).toHaveTextContent('15'))
    scans = 16
    await waitFor(() => expect(within(dialog).getByText('Human scans').nextSibling).toHaveTextContent('16'), { timeout: 6000 })
  })

  it('switches the detailed code', async () => {
    stub({})
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await userEvent.selectOptions(await within(dialog).findByLabelText('QR code'), 'Poster')
    await waitFor(() => expect(within(dialog).getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/dynamic-qrcodes/5/scans.csv'))
    expect(await within(dialog).findByText(/No referrers yet/)).toBeInTheDocument()
  })

  it("shows an imported code's old clicks apart from its scans, and none for a code made here", async () => {
    stub({ 'GET /api/dynamic-qrcodes': () => json([{ ...dynamicRecord(3, 'Menu card'), importedClicks: 1200 }, dynamicRecord(5, 'Poster')]) })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByTestId('imported-clicks')).toHaveTextContent('1,200 clicks before import')
    // The scans stay Squarely's own: the old clicks are not added to them.
    expect(await within(dialog).findByText('+50% on the previous period (10)')).toBeInTheDocument()
    await userEvent.selectOptions(within(dialog).getByLabelText('QR code'), 'Poster')
    await waitFor(() => expect(within(dialog).queryByTestId('imported-clicks')).not.toBeInTheDocument())
  })

  it("shows 'Failed to load analytics data' and loads again on Try Again", async () => {
    let fail = true
    const mock = stub({ 'GET /api/user-analytics': () => (fail ? json({ message: 'down' }, 500) : json(analytics)) })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByText('Failed to load analytics data')).toBeInTheDocument()
    fail = false
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try Again' }))
    expect(await within(dialog).findByText('Total Generations')).toBeInTheDocument()
    expect(mock.mock.calls.filter(([url]) => url === '/api/user-analytics')).toHaveLength(2)
  })

  it('counts one in the singular: 1 generation, 1 download, 1 scan', async () => {
    stub({
      'GET /api/dynamic-qrcodes': () => json([]),
      'GET /api/user-analytics': () =>
        json({
          ...analytics,
          topPerformingQrCodes: [{ id: 7, name: 'Shop front', type: 'url', downloads: 1, generations: 1 }],
          dynamicQrPerformance: [{ id: 3, name: 'Menu card', scans: 1 }],
        }),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByText('Website · 1 generation')).toBeInTheDocument()
    expect(within(dialog).getByText('download')).toBeInTheDocument()
    expect(within(dialog).getByText('scan')).toBeInTheDocument()
    expect(within(dialog).queryByText(/downloads$|^scans$/)).toBeNull()
  })

  it('asks for a dynamic code when there is none', async () => {
    stub({
      'GET /api/dynamic-qrcodes': () => json([]),
      'GET /api/user-analytics': () => json({ ...analytics, dynamicQrPerformance: [] }),
    })
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    expect(await within(dialog).findByText(/Create a dynamic QR code to see its scans/)).toBeInTheDocument()
  })
})

describe('niceMax', () => {
  it.each([
    [0, 4],
    [3, 4],
    [5, 5],
    [11, 20],
    [17, 20],
    [42, 50],
    [980, 1000],
  ])('rounds %d up to %d', (value, expected) => {
    expect(niceMax(value)).toBe(expected)
  })
})

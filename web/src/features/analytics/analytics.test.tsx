import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { CodeAnalytics, UserAnalytics } from './api/types'
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
  Array.from({ length: n }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, scans: i === n - 1 ? 5 : 0, uniqueVisitors: i === n - 1 ? 3 : 0 }))

const codeAnalytics = (over: Partial<CodeAnalytics> = {}): CodeAnalytics => ({
  totalScans: 18,
  humanScans: 15,
  botScans: 3,
  uniqueVisitors: 9,
  daily: days(30),
  devices: { mobile: 12, desktop: 3 },
  os: { iOS: 8, Android: 4, Windows: 3 },
  browsers: { Safari: 8, Chrome: 7 },
  referrers: [{ referrer: 'https://news.example.com', count: 4 }],
  ...over,
})

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
    'GET /api/dynamic-qrcodes/3/analytics': () => json(codeAnalytics()),
    'GET /api/dynamic-qrcodes/5/analytics': () => json(codeAnalytics({ humanScans: 2, uniqueVisitors: 1, botScans: 0, referrers: [] })),
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
  })

  it('switches the detailed code', async () => {
    stub({})
    renderApp('/dashboard')
    const dialog = await openAnalytics()
    await userEvent.selectOptions(await within(dialog).findByLabelText('QR code'), 'Poster')
    await waitFor(() => expect(within(dialog).getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/dynamic-qrcodes/5/scans.csv'))
    expect(await within(dialog).findByText(/No referrers yet/)).toBeInTheDocument()
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

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { ReportSchedule, ReportSchedules } from './api/report-schedules'
import { whenLabel } from './components/reports-tab'

const weekly: ReportSchedule = {
  id: 4,
  scope: { codeId: 3 },
  scopeName: 'Menu card',
  frequency: 'weekly',
  weekday: 'monday',
  hour: 9,
  timeZone: 'Europe/Berlin',
  format: ['pdf', 'csv'],
  recipients: ['alice@example.com'],
  sendEmpty: false,
  nextSendAt: '2026-12-07T08:00:00Z',
  createdBy: 1,
  canEdit: true,
}

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

function stub(list: ReportSchedules, handlers: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/user': () => json(alice),
    'GET /api/qrcodes': () => json([]),
    'GET /api/dynamic-qrcodes': () => json([dynamicRecord(3, 'Menu card')]),
    'GET /api/dynamic-qrcodes/paused': () => json([]),
    'GET /api/tags': () => json([]),
    'GET /api/folders': () => json([]),
    'GET /api/trial-status': () => json({ isActive: false, hasExpired: false, daysRemaining: 0, subscriptionStatus: 'active', dynamicQRUsed: 1, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    'GET /api/user-analytics': () =>
      json({
        overview: { totalQrCodes: 1, totalScans: 0, totalDownloads: 0, totalGenerations: 0, staticQrCodes: 0, dynamicQrCodes: 1 },
        qrTypeDistribution: {},
        recentActivity: { generations: 0, downloads: 0 },
        topPerformingQrCodes: [],
        dynamicQrPerformance: [],
      }),
    'GET /api/report-schedules': () => json(list),
    ...handlers,
  })
}

async function openReports() {
  await userEvent.click(await screen.findByRole('button', { name: 'Analytics' }))
  const dialog = await screen.findByRole('dialog', { name: 'Analytics Dashboard' })
  await userEvent.click(within(dialog).getByRole('tab', { name: 'Reports' }))
  return dialog
}

describe('Reports tab', () => {
  it('lists schedules and sends a test now', async () => {
    let sent = 0
    stub(
      { schedules: [weekly], mailEnabled: true, limit: 20 },
      {
        'POST /api/report-schedules/4/send-now': () => {
          sent++
          return json({ sent: 1, message: 'Report sent to 1 recipient(s).' })
        },
      },
    )
    renderApp('/dashboard')
    const dialog = await openReports()
    const row = await within(dialog).findByRole('listitem', { name: 'Code Menu card, Weekly on Monday at 09:00 (Europe/Berlin)' })
    expect(row).toHaveTextContent('alice@example.com · PDF and CSV')
    await userEvent.click(within(row).getByRole('button', { name: 'Send a test now' }))
    await waitFor(() => expect(sent).toBe(1))
    expect(await screen.findByText('Report sent to 1 recipient(s).')).toBeInTheDocument()
  })

  it('adds a schedule, showing the server’s field errors under their fields', async () => {
    const bodies: unknown[] = []
    stub(
      { schedules: [], mailEnabled: true, limit: 20 },
      {
        'POST /api/report-schedules': (init) => {
          const body = JSON.parse(String(init?.body)) as { timeZone: string }
          bodies.push(body)
          if (body.timeZone === 'Mars/Olympus') {
            const message = 'timeZone must be an IANA time zone, e.g. Europe/Berlin'
            return json({ message, errors: { timeZone: message } }, 400)
          }
          return json({ ...weekly, id: 9 }, 201)
        },
      },
    )
    renderApp('/dashboard')
    const dialog = await openReports()
    expect(await within(dialog).findByText('No scheduled reports yet.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add schedule' }))
    const form = await screen.findByRole('form', { name: 'New report schedule' })
    await userEvent.selectOptions(within(form).getByLabelText('What to report on'), 'Code: Menu card')
    await userEvent.selectOptions(within(form).getByLabelText('Day'), 'Friday')
    await userEvent.selectOptions(within(form).getByLabelText('Hour'), '07:00')
    const zone = within(form).getByLabelText('Time zone')
    await userEvent.clear(zone)
    await userEvent.type(zone, 'Mars/Olympus')
    await userEvent.click(within(form).getByLabelText('PDF'))
    await userEvent.click(within(form).getByRole('button', { name: 'Schedule report' }))
    expect(await within(form).findByText('timeZone must be an IANA time zone, e.g. Europe/Berlin')).toBeInTheDocument()
    expect(zone).toHaveAttribute('aria-invalid', 'true')
    expect(bodies[0]).toEqual({
      scope: { codeId: 3 },
      frequency: 'weekly',
      weekday: 'friday',
      hour: 7,
      timeZone: 'Mars/Olympus',
      format: ['csv'],
      recipients: ['alice@example.com'],
      sendEmpty: false,
    })
    await userEvent.clear(zone)
    await userEvent.type(zone, 'America/New_York')
    await userEvent.click(within(form).getByRole('button', { name: 'Schedule report' }))
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New report schedule' })).not.toBeInTheDocument())
    expect(bodies).toHaveLength(2)
  })

  it('says when mail is off, and sends no test then', async () => {
    stub({ schedules: [weekly], mailEnabled: false, limit: 20 })
    renderApp('/dashboard')
    const dialog = await openReports()
    expect(await within(dialog).findByText(/E-mail is off on this server, so scheduled reports are not sent/)).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Send a test now' })).toBeDisabled()
  })

  it('words when a schedule sends', () => {
    expect(whenLabel({ frequency: 'daily', weekday: null, hour: 0, timeZone: 'UTC' })).toBe('Daily at 00:00 (UTC)')
    expect(whenLabel({ frequency: 'monthly', weekday: null, hour: 23, timeZone: 'Asia/Tokyo' })).toBe('Monthly on the 1st at 23:00 (Asia/Tokyo)')
  })
})

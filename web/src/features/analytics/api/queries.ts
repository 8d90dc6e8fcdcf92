import { queryOptions, useQuery } from '@tanstack/react-query'
import type { DynamicCodeSummary, ScanReport, UserAnalytics } from './types'

// Scans arrive all the time: the dialog reads fresh numbers every time it opens.
const fresh = { refetchOnMount: 'always' } as const

export function useUserAnalytics() {
  return useQuery(queryOptions<UserAnalytics>({ queryKey: ['/api/user-analytics'], ...fresh }))
}

/** The dialog's range choices; custom takes two dates. */
export type RangePreset = '24h' | '7d' | '30d' | '90d' | 'all' | 'custom'

export interface RangeChoice {
  preset: RangePreset
  from?: string
  to?: string
  bots: boolean
  /** Only this country's scans: an ISO code, or 'unknown' for those no country was found for. */
  country?: string
}

/** The user's IANA time zone, so days are the user's days. */
export const userTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** 'YYYY-MM-DD' of a time in a time zone. */
export function dateIn(t: Date, timeZone: string) {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t)
}

/** The query string for a range choice: presets of days end today in the user's time zone. */
export function rangeQuery(choice: RangeChoice, now = new Date(), timeZone = userTimeZone()) {
  const q = new URLSearchParams()
  if (choice.preset === '24h' || choice.preset === 'all') q.set('period', choice.preset)
  else if (choice.preset === 'custom') {
    q.set('from', choice.from ?? '')
    q.set('to', choice.to ?? '')
  } else {
    const days = Number.parseInt(choice.preset, 10)
    q.set('from', dateIn(new Date(now.getTime() - (days - 1) * 86_400_000), timeZone))
    q.set('to', dateIn(now, timeZone))
  }
  q.set('tz', timeZone)
  if (choice.bots) q.set('bots', 'true')
  if (choice.country) q.set('country', choice.country)
  return q.toString()
}

/** A code's analytics (id) or the account's (undefined) for a range, read again every 4 seconds while shown. */
export function useScanReport(id: number | 'all' | undefined, query: string) {
  const key = id === 'all' ? ['/api/analytics?' + query] : ['/api/dynamic-qrcodes', String(id), 'analytics?' + query]
  return useQuery(
    queryOptions<ScanReport>({
      queryKey: key,
      enabled: id !== undefined,
      refetchInterval: 4000, // with the recorder's 1 s flush, a scan shows within 5 s
      placeholderData: (previous) => previous,
      ...fresh,
    }),
  )
}

/** Active and paused dynamic codes: every code whose scans can be looked at. */
export function useDynamicCodes() {
  const active = useQuery(queryOptions<DynamicCodeSummary[]>({ queryKey: ['/api/dynamic-qrcodes'] }))
  const paused = useQuery(queryOptions<DynamicCodeSummary[]>({ queryKey: ['/api/dynamic-qrcodes/paused'] }))
  return [...(active.data ?? []), ...(paused.data ?? [])]
}

export const scansCsvUrl = (id: number) => `/api/dynamic-qrcodes/${id}/scans.csv`

/** One breakdown of the range as CSV (by: time, hour, country, device, os, browser or referrer). */
export const breakdownCsvUrl = (id: number | 'all', query: string, by: string) =>
  `${id === 'all' ? '/api/analytics' : `/api/dynamic-qrcodes/${id}`}/breakdown.csv?by=${by}&${query}`

/** The range's analytics (figures, chart, breakdowns) as a printable PDF. */
export const reportPdfUrl = (id: number | 'all', query: string) => `${id === 'all' ? '/api/analytics' : `/api/dynamic-qrcodes/${id}`}/report.pdf?${query}`

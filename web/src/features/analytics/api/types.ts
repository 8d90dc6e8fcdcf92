/** GET /api/user-analytics (spec 01 §3 "User analytics"). */
export interface UserAnalytics {
  overview: {
    totalQrCodes: number
    totalScans: number
    totalDownloads: number
    totalGenerations: number
    staticQrCodes: number
    dynamicQrCodes: number
  }
  qrTypeDistribution: Record<string, number>
  recentActivity: { generations: number; downloads: number }
  topPerformingQrCodes: { id: number; name: string; type: string; downloads: number; generations: number }[]
  dynamicQrPerformance: { id: number; name: string; scans: number }[]
}

/** GET /api/analytics and /api/dynamic-qrcodes/{id}/analytics: scans over a range (docs/API.md). */
export interface ScanReport {
  from: string
  to: string
  timeZone: string
  granularity: 'hour' | 'day'
  bots: boolean
  /** Scans counted under the bots switch; the rest of the breakdowns count the same scans. */
  scans: number
  totalScans: number
  humanScans: number
  botScans: number
  uniqueVisitors: number
  previous: { from: string; to: string; scans: number } | null
  series: { start: string; scans: number }[]
  peakHours: number[]
  countries: { country: string; scans: number }[]
  unknownCountry: number
  /** The ?country= the report is of ('' for unknown); absent for every country. */
  country?: string
  /** Scans the server's city database placed (empty without one: citiesEnabled false). */
  regions: { country: string; region: string; scans: number }[]
  cities: { country: string; region: string; city: string; scans: number }[]
  citiesEnabled: boolean
  devices: Record<string, number>
  os: Record<string, number>
  browsers: Record<string, number>
  referrers: { referrer: string; count: number }[]
  /** One code's scans by what served them: route "rule:0", "split:1", "default", "ended" and its name as the owner knows it ("Rule 1: iOS", "Variant B 50%"). */
  routes: { route: string; name: string; scans: number }[]
  attribution: string
}

/** The few fields of a dynamic code the analytics need to offer it for a closer look. */
export interface DynamicCodeSummary {
  id: number
  name: string
  isPaused: boolean
  /** The hosted page the code opens (issue 35), null for a redirect. */
  pageId?: number | null
  /** An imported link's old total click count at its former shortener: apart from the scans. */
  importedClicks?: number
}

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

/** GET /api/dynamic-qrcodes/{id}/analytics: one code's last 30 days (docs/API.md). */
export interface CodeAnalytics {
  totalScans: number
  humanScans: number
  botScans: number
  uniqueVisitors: number
  daily: { date: string; scans: number; uniqueVisitors: number }[]
  devices: Record<string, number>
  os: Record<string, number>
  browsers: Record<string, number>
  referrers: { referrer: string; count: number }[]
}

/** The few fields of a dynamic code the analytics need to offer it for a closer look. */
export interface DynamicCodeSummary {
  id: number
  name: string
  isPaused: boolean
}

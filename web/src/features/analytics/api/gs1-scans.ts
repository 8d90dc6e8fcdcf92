import { useQuery } from '@tanstack/react-query'

/** A row of GET /api/gs1/analytics (docs/API.md "GS1 Digital Link"). */
export interface Gs1ScanCount {
  gtin: string
  /** The workspace's product of the GTIN, '' when it has none. */
  name: string
  lot: string
  linkType: string
  scans: number
  /** The row of the lots past the day's bound of unlisted lots, counted together. */
  otherLots?: boolean
}

/** GET /api/gs1/analytics: the most scanned rows (100), and the rows and scans it leaves off. */
export interface Gs1Scans {
  from: string
  to: string
  scans: Gs1ScanCount[]
  otherRows: number
  otherScans: number
}

/** The workspace's GS1 Digital Link scans of the last 30 days, by GTIN, lot and link type. */
export function useGs1Scans() {
  return useQuery<Gs1Scans>({ queryKey: ['/api/gs1/analytics'] })
}

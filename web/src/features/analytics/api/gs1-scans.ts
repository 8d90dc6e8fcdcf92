import { useQuery } from '@tanstack/react-query'

/** A row of GET /api/gs1/analytics (docs/API.md "GS1 Digital Link"). */
export interface Gs1ScanCount {
  gtin: string
  /** The workspace's product of the GTIN, '' when it has none. */
  name: string
  lot: string
  linkType: string
  scans: number
}

/** The workspace's GS1 Digital Link scans of the last 30 days, by GTIN, lot and link type. */
export function useGs1Scans() {
  return useQuery<{ from: string; to: string; scans: Gs1ScanCount[] }>({ queryKey: ['/api/gs1/analytics'] })
}

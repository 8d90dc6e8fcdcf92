import { useQuery } from '@tanstack/react-query'

/** A workspace domain as far as a code's Domain tab needs it (GET /api/domains). */
export interface CodeDomain {
  id: number
  domain: string
  status: 'pending' | 'verified' | 'lost'
  /** Seen reaching this server: only such a domain may be printed. */
  pointing: boolean
}

/** The workspace's domains a dynamic code may print: verified (lost ones too: they still serve) and pointing here. */
export function useVerifiedDomains(enabled = true) {
  return useQuery<CodeDomain[], Error, CodeDomain[]>({
    queryKey: ['/api/domains'],
    enabled,
    select: (list) => list.filter((d) => d.status !== 'pending' && d.pointing),
  })
}

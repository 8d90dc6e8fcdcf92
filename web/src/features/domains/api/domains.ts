import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** A workspace's custom domain as GET /api/domains lists it (docs/API.md "Custom domains"). */
export interface Domain {
  id: number
  domain: string
  /** lost: verified, but two daily re-checks in a row found no proof; it still serves its codes. */
  status: 'pending' | 'verified' | 'lost'
  method: 'dns' | 'http' | null
  verifiedAt: string | null
  lastCheckedAt: string | null
  /** Why the last verification or re-check failed; empty when it did not. */
  lastError: string
  lostAt: string | null
  /** Live dynamic codes printing it. */
  codes: number
  txtName: string
  txtValue: string
  httpUrl: string
  httpBody: string
  createdAt: string
  /** Links only: / redirects to rootUrl ('' for a 404 page) and unknown paths answer a 404 page, not the app. */
  linksOnly: boolean
  rootUrl: string
  /** Where to point the domain: a CNAME to cnameTarget, or A/AAAA records with addresses (may be empty). */
  cnameTarget: string
  addresses: string[]
  /** The pointing check saw the domain's requests reach this server: codes may print it. */
  pointing: boolean
  pointCheckedAt: string | null
  /** What the last pointing check found instead; empty when it passed. */
  pointError: string
}

export const domainsQueryKey = ['/api/domains']

export function useDomains() {
  return useQuery<Domain[]>({ queryKey: domainsQueryKey })
}

function useDomainMutation<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: call,
    // A failed verification is kept as lastError: refetch either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: domainsQueryKey }),
  })
}

export function useAddDomain() {
  return useDomainMutation((domain: string) => apiJson<Domain>('POST', '/api/domains', { domain }))
}

export function useVerifyDomain() {
  return useDomainMutation((id: number) => apiJson<Domain>('POST', `/api/domains/${id}/verify`))
}

export function useCheckPointing() {
  return useDomainMutation((id: number) => apiJson<Domain>('POST', `/api/domains/${id}/pointing`))
}

export function useDeleteDomain() {
  return useDomainMutation((id: number) => apiRequest('DELETE', `/api/domains/${id}`))
}

export function useSetDomainLinks() {
  return useDomainMutation(({ id, linksOnly, rootUrl }: { id: number; linksOnly: boolean; rootUrl: string }) =>
    apiJson<Domain>('PATCH', `/api/domains/${id}`, { linksOnly, rootUrl }),
  )
}

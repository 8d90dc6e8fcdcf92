import { queryOptions, useQuery } from '@tanstack/react-query'
import type { CodeAnalytics, DynamicCodeSummary, UserAnalytics } from './types'

// Scans arrive all the time: the dialog reads fresh numbers every time it opens.
const fresh = { refetchOnMount: 'always' } as const

export function useUserAnalytics() {
  return useQuery(queryOptions<UserAnalytics>({ queryKey: ['/api/user-analytics'], ...fresh }))
}

export function useCodeAnalytics(id: number | undefined) {
  return useQuery(
    queryOptions<CodeAnalytics>({
      queryKey: ['/api/dynamic-qrcodes', String(id), 'analytics'],
      enabled: id !== undefined,
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

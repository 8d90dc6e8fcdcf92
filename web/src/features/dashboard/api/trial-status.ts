import { queryOptions, useQuery } from '@tanstack/react-query'
import { useUser } from '@/lib/auth'
import type { TrialStatus } from './types'

/** Spec 01 §9: the trial status is refetched every 5 minutes. */
export const TRIAL_STATUS_INTERVAL = 5 * 60 * 1000

export const trialStatusQueryOptions = (signedIn: boolean) =>
  queryOptions<TrialStatus>({
    queryKey: ['/api/trial-status'],
    enabled: signedIn,
    refetchInterval: TRIAL_STATUS_INTERVAL,
    refetchOnWindowFocus: false,
  })

/** The trial status, fetched for signed-in users only. */
export function useTrialStatus() {
  const { data: user } = useUser()
  return useQuery(trialStatusQueryOptions(Boolean(user)))
}

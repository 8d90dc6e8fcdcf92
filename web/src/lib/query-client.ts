import { QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api-client'

/**
 * The request conventions: no retry, no refetch on focus or by interval, data
 * never goes stale by time; reads GET their key as a path and a 401 is an error
 * unless a query asks otherwise.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  })
}

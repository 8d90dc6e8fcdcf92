import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api-client'
import { toast } from './use-toast'

/** The signed-in user as GET /api/user returns it; username is the e-mail. */
export interface User {
  id: number
  username: string
  email?: string | null
  firstName?: string | null
  lastName?: string | null
  googleId?: string | null
  subscriptionStatus?: string | null
  [field: string]: unknown
}

export const userQueryKey = ['/api/user']

const fetchUser = getQueryFn<User>({ on401: 'returnNull' })

/** The session's user, or null when signed out. Any failure counts as signed out. */
export const getUserQueryOptions = () =>
  queryOptions<User | null>({
    queryKey: userQueryKey,
    queryFn: async (context) => {
      try {
        return await fetchUser(context)
      } catch {
        toast({ title: 'Failed to fetch user data', variant: 'destructive' })
        return null
      }
    },
  })

export function useUser() {
  return useQuery(getUserQueryOptions())
}

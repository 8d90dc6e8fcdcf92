import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api-client'
import { toast } from './use-toast'
import type { ActiveWorkspace } from './workspace'

/** The signed-in user as GET /api/user returns it; username is the e-mail. */
export interface User {
  id: number
  username: string
  email?: string | null
  firstName?: string | null
  lastName?: string | null
  googleId?: string | null
  subscriptionStatus?: string | null
  /** False for Google-only and trial accounts, which set a first password without the current one. */
  hasPassword?: boolean
  /** Whether a link mailed to the address was followed (or Google vouched for it). */
  emailVerified?: boolean
  /** Admins manage mailings and white-label clients. */
  isAdmin?: boolean
  /** The session's active workspace: every code route acts on it (issue 22). */
  workspace?: ActiveWorkspace
  [field: string]: unknown
}

export const userQueryKey = ['/api/user']

const fetchUser = getQueryFn<User>({ on401: 'returnNull' })

/** The session's user, or null when signed out. Any failure counts as signed out. */
export async function getUser(context: Parameters<typeof fetchUser>[0]): Promise<User | null> {
  try {
    return await fetchUser(context)
  } catch (error) {
    // A cancelled query is not a failed one: let the query client see the cancellation.
    if (context.signal.aborted) throw error
    toast({ title: 'Failed to fetch user data', variant: 'destructive' })
    return null
  }
}

export const getUserQueryOptions = () => queryOptions<User | null>({ queryKey: userQueryKey, queryFn: getUser })

/**
 * Makes user (null: nobody) the session's user after a sign-in, sign-up or
 * sign-out. A read of /api/user asked before it (the page's first, still
 * in flight) would answer after and put the old session back, or none: it
 * is cancelled first.
 */
export async function setSessionUser(queryClient: QueryClient, user: User | null) {
  await queryClient.cancelQueries({ queryKey: userQueryKey })
  queryClient.setQueryData(userQueryKey, user)
}

export function useUser() {
  return useQuery(getUserQueryOptions())
}

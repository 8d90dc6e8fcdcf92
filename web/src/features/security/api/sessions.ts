import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest, getQueryFn, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

export interface Session {
  id: string
  current: boolean
  createdAt: string
  lastSeenAt: string
  ip: string
  userAgent: string
  /** ISO country code, '' when unknown. */
  location: string
}

const sessionsQueryKey = ['/api/sessions']

export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: getQueryFn<Session[]>({ on401: 'throw' }) })
}

export function useEndSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/sessions/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey })
      toast({ title: 'Session ended' })
    },
    onError: (error) => toast({ title: 'Could not end the session', description: serverMessage(error), variant: 'destructive' }),
  })
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiJson<{ message: string; ended: number }>('POST', '/api/sessions/revoke-others'),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey })
      toast({ title: answer.message })
    },
    onError: (error) => toast({ title: 'Could not end the sessions', description: serverMessage(error), variant: 'destructive' }),
  })
}

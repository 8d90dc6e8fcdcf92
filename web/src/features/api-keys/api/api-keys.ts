import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** A personal API key as GET /api/api-keys lists it. */
export interface ApiKey {
  id: number
  name: string
  /** prefix…last4 */
  masked: string
  /** The whole key: only in the answer that made it. */
  key?: string
  createdAt: string
  /** The member who made it: the key acts with their current role. */
  createdBy: { userId: number; email: string; name: string }
}

export const apiKeysQueryKey = ['/api/api-keys']

export function useApiKeys() {
  return useQuery<ApiKey[]>({ queryKey: apiKeysQueryKey })
}

export function useCreateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => apiJson<ApiKey>('POST', '/api/api-keys', { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  })
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/api-keys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  })
}

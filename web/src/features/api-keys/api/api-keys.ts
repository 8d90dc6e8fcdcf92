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
  /** What the key may do; null: every scope its maker's role allows. */
  scopes: string[] | null
  /** The one folder whose codes it sees and makes; null: the workspace. */
  folderId: number | null
  /** When it stops working (RFC 3339); null: never. */
  expiresAt: string | null
}

/** What POST /api/api-keys takes: a name and optional limits. */
export interface NewApiKey {
  name: string
  scopes?: string[]
  folderId?: number
  expiresAt?: string
}

/** The scopes a key may be given (docs/API.md "API keys"), as the app names them. */
export const apiScopes = [
  { scope: 'codes:read', label: 'Read codes and their images' },
  { scope: 'codes:write', label: 'Create, change, pause and delete codes' },
  { scope: 'analytics:read', label: 'Read scan analytics' },
  { scope: 'pages:read', label: 'Read hosted pages' },
  { scope: 'pages:write', label: 'Change hosted pages' },
  { scope: 'webhooks:read', label: 'Read webhooks and deliveries' },
  { scope: 'webhooks:write', label: 'Change webhooks' },
  { scope: 'domains:read', label: 'Read custom domains' },
  { scope: 'workspace:read', label: 'Read the workspace (brand kits)' },
  { scope: 'products:read', label: 'Read GS1 products' },
  { scope: 'products:write', label: 'Change GS1 products and recall lots' },
] as const

/** The scopes a key limited to a folder may have: its codes, nothing of the workspace at large. */
export const folderScopes = ['codes:read', 'codes:write', 'analytics:read']

export const apiKeysQueryKey = ['/api/api-keys']

export function useApiKeys() {
  return useQuery<ApiKey[]>({ queryKey: apiKeysQueryKey })
}

export function useCreateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (key: NewApiKey) => apiJson<ApiKey>('POST', '/api/api-keys', key),
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

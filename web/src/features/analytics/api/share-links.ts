import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** What a share link shows: one code, a tag's or a folder's codes, or the whole workspace. */
export type ShareScope = { codeId: number } | { tagId: number } | { folderId: number } | { workspace: true }

/** A share link as GET /api/share-links lists it (docs/API.md "Share links"); token and url only when just made. */
export interface ShareLink {
  id: number
  token?: string
  url?: string
  tokenHint: string
  scope: Partial<{ codeId: number; tagId: number; folderId: number; workspace: boolean }>
  scopeName: string
  protected: boolean
  expiresAt: string | null
  expired: boolean
  createdAt: string
}

export const shareLinksKey = ['/api/share-links']

export function useShareLinks() {
  return useQuery<ShareLink[]>({ queryKey: shareLinksKey, refetchOnMount: 'always' })
}

export function useCreateShareLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { scope: ShareScope; expiresAt?: string; password?: string }) => apiJson<ShareLink>('POST', '/api/share-links', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinksKey }),
  })
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/share-links/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareLinksKey }),
  })
}

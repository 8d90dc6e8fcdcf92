import { useInfiniteQuery } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'

/** One change in a workspace, as GET /api/workspaces/{id}/audit-log lists it (newest first). */
export interface AuditEntry {
  at: string
  /** A member, or an API key ("api_key", with its maker's e-mail). */
  actor: { type: string; id: number | null; email?: string | null }
  action: string
  target: { type: string; id: number | string | null; name?: string | null }
  details?: unknown
}

interface AuditPage {
  items: AuditEntry[]
  nextCursor: string | null
}

export const auditPageSize = 50

export function auditLogUrl(workspaceId: number, format: 'json' | 'csv' = 'json') {
  return `/api/workspaces/${workspaceId}/audit-log${format === 'csv' ? '.csv' : ''}`
}

/** The audit log a page at a time, by the server's cursor. */
export function useAuditLog(workspaceId: number) {
  return useInfiniteQuery({
    queryKey: ['/api/workspaces', String(workspaceId), 'audit-log'],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(auditPageSize) })
      if (pageParam) params.set('cursor', pageParam)
      return apiJson<AuditPage>('GET', `${auditLogUrl(workspaceId)}?${params}`)
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { apiJson } from '@/lib/api-client'

/** What a bulk edit changes (docs/API.md "Bulk edits"). */
export interface BulkChanges {
  destination?: string | { replace: { from: string; to: string } }
  addTags?: number[]
  removeTags?: number[]
  folderId?: number | null
  paused?: boolean
  delete?: true
}

/** The codes a bulk edit selects: /api/v1 ids (d_N, s_N), or the code list's filters. */
export type BulkSelection = { ids: string[] } | { filter: Record<string, string> }

export interface DryRunRow {
  /** A spreadsheet update's row. */
  row?: number
  id: string
  name: string
  shortCode?: string
  before: Record<string, unknown>
  after: Record<string, unknown>
}

export interface DryRun {
  selected: number
  changing: number
  rows: DryRunRow[]
  failures: { row?: number; id: string; reason: string }[]
}

export interface BulkEditJob {
  id: number
  status: 'queued' | 'running' | 'done' | 'failed' | 'undone'
  total: number
  processed: number
  failed: number
  error?: string
  createdAt: string
  finishedAt: string | null
  undoUntil: string | null
}

export interface UndoResult {
  restored: number
  skipped: { id: string; reason: string }[]
}

const historyKey = ['/api/codes/bulk-edit']

export function useDryRun() {
  return useMutation({
    mutationFn: (req: { selection: BulkSelection; changes: BulkChanges }) =>
      apiJson<DryRun>('POST', '/api/codes/bulk-edit', { ...req.selection, changes: req.changes, dryRun: true }),
  })
}

export function useStartBulkEdit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (req: { selection: BulkSelection; changes: BulkChanges }) =>
      apiJson<{ id: number; total: number }>('POST', '/api/codes/bulk-edit', { ...req.selection, changes: req.changes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: historyKey }),
  })
}

/** A job, polled while it runs; the code lists are read again once it ends. */
export function useBulkEditJob(id: number | null) {
  const queryClient = useQueryClient()
  const job = useQuery<BulkEditJob>({
    queryKey: [`/api/codes/bulk-edit/${id}`],
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && !running(q.state.data) ? false : 500),
  })
  const ended = job.data !== undefined && !running(job.data)
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: ['/api/codes'] })
  }, [ended, queryClient])
  return job
}

export const running = (j: BulkEditJob) => j.status === 'queued' || j.status === 'running'

/** The workspace's latest jobs, newest first. */
export function useBulkEdits(enabled: boolean) {
  return useQuery<{ items: BulkEditJob[] }>({ queryKey: historyKey, enabled })
}

export function useUndoBulkEdit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiJson<UndoResult>('POST', `/api/codes/bulk-edit/${id}/undo`),
    onSuccess: (_, id) =>
      Promise.all([historyKey, [`/api/codes/bulk-edit/${id}`], ['/api/codes']].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

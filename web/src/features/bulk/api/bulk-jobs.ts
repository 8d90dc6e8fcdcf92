import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, apiJson } from '@/lib/api-client'

export interface RowError {
  row: number
  column: string
  message: string
}

export interface DryRun {
  dryRun: true
  status: 'checked'
  total: number
  valid: number
  failed: number
  errors: RowError[]
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed'

export interface BulkJob {
  id: number
  status: JobStatus
  fileName: string
  total: number
  processed: number
  failed: number
  /** The custom domain the job's dynamic codes print; null = the base URL. */
  domainId: number | null
  domain?: string
  error?: string
  errors?: RowError[]
}

export type JobFormat = 'png' | 'svg' | 'pdf'

/** domainId: a verified domain of the workspace for the dynamic codes, or null for the base URL. */
function sheetForm(file: File, dryRun: boolean, domainId: number | null): FormData {
  const form = new FormData()
  form.append('file', file)
  if (dryRun) form.append('dryRun', 'true')
  if (domainId !== null) form.append('domainId', String(domainId))
  return form
}

/** POST /api/bulk-jobs with dryRun: every row's errors, nothing saved. */
export function checkSpreadsheet(file: File, domainId: number | null): Promise<DryRun> {
  return apiJson<DryRun>('POST', '/api/bulk-jobs', sheetForm(file, true, domainId))
}

/**
 * POST /api/bulk-jobs: queues the file's good rows. The key is the same for
 * every send of one chosen file, so a repeat answers the first job.
 */
export async function createBulkJob(file: File, idempotencyKey: string, domainId: number | null): Promise<BulkJob> {
  const res = await fetch('/api/bulk-jobs', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Idempotency-Key': idempotencyKey },
    body: sheetForm(file, false, domainId),
  })
  if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text())
  return (await res.json()) as BulkJob
}

/** How often a running job's progress is read: the page shows it at least once a second. */
export const JOB_POLL_MS = 500

export const bulkJobQueryOptions = (id: number) =>
  queryOptions<BulkJob>({
    queryKey: ['/api/bulk-jobs', id],
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : JOB_POLL_MS),
  })

export function isFinished(status: JobStatus): boolean {
  return status === 'done' || status === 'failed'
}

/** A job's progress, polled until it ends. */
export function useBulkJob(id: number | undefined) {
  return useQuery({ ...bulkJobQueryOptions(id ?? 0), enabled: id !== undefined })
}

export function jobDownloadUrl(id: number, format: JobFormat): string {
  return `/api/bulk-jobs/${id}/download?format=${format}`
}

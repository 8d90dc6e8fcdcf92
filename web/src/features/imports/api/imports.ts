import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'

/** Where links come from (docs/API.md "Imports from other shorteners"). */
export type ImportSource = 'csv' | 'bitly-csv' | 'dub-csv' | 'kutt' | 'shlink' | 'yourls' | 'dub' | 'bitly'

/** placeholder: the API's base URL, for a source read through its API. */
export const importSources: { value: ImportSource; label: string; file: boolean; placeholder?: string }[] = [
  { value: 'csv', label: 'CSV (shortCode, destination, name, tags, createdAt)', file: true },
  { value: 'bitly-csv', label: 'Bitly CSV export', file: true },
  { value: 'dub-csv', label: 'Dub CSV export', file: true },
  { value: 'bitly', label: 'Bitly (API v4)', file: false, placeholder: 'https://api-ssl.bitly.com' },
  { value: 'dub', label: 'Dub (API)', file: false, placeholder: 'https://api.dub.co' },
  { value: 'kutt', label: 'Kutt (API v2)', file: false, placeholder: 'https://kutt.example.com' },
  { value: 'shlink', label: 'Shlink (REST API v3)', file: false, placeholder: 'https://s.example.com' },
  { value: 'yourls', label: 'YOURLS (yourls-api.php)', file: false, placeholder: 'https://yourls.example.com' },
]

export interface ImportItem {
  row: number
  shortCode: string
  destination: string
  title: string
  tags: string[]
  clicks: number
  createdAt: string | null
  /** pending: will be created (dry run) or not yet; created, exists (skipped), conflict, failed. */
  status: 'pending' | 'created' | 'exists' | 'conflict' | 'failed'
  reason?: string
}

export interface DryRun {
  dryRun: true
  total: number
  create: number
  conflicts: number
  skip: number
  items: ImportItem[]
}

export interface SwitchDifference {
  shortCode: string
  old: string
  new: string
}

export interface ImportJob {
  id: number
  source: ImportSource
  status: 'queued' | 'running' | 'done' | 'failed'
  domain: string
  oldBaseUrl: string
  total: number
  progress: number
  created: number
  skipped: number
  conflicts: number
  failed: number
  error: string
  items: ImportItem[]
  check: { checked: number; same: number; different: SwitchDifference[]; running: boolean; ready: boolean }
}

export interface ImportRequest {
  source: ImportSource
  file?: File
  baseUrl: string
  apiKey: string
  oldBaseUrl: string
  domainId: string
}

/** The request of an import: a multipart upload for a file, JSON for an API. */
function body(req: ImportRequest, dryRun: boolean): FormData | Record<string, unknown> {
  if (importSources.find((s) => s.value === req.source)?.file ?? true) {
    const form = new FormData()
    form.append('source', req.source)
    if (req.file) form.append('file', req.file)
    if (req.oldBaseUrl.trim()) form.append('oldBaseUrl', req.oldBaseUrl.trim())
    if (req.domainId) form.append('domainId', req.domainId)
    form.append('dryRun', String(dryRun))
    return form
  }
  return {
    source: req.source,
    baseUrl: req.baseUrl.trim(),
    apiKey: req.apiKey.trim(),
    oldBaseUrl: req.oldBaseUrl.trim() || undefined,
    domainId: req.domainId ? Number(req.domainId) : undefined,
    dryRun,
  }
}

export function useDryRun() {
  return useMutation({ mutationFn: (req: ImportRequest) => apiJson<DryRun>('POST', '/api/imports', body(req, true)) })
}

export function useStartImport() {
  return useMutation({ mutationFn: (req: ImportRequest) => apiJson<ImportJob>('POST', '/api/imports', body(req, false)) })
}

export function useCheckSwitch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiJson<ImportJob>('POST', `/api/imports/${id}/verify`),
    // The answer says the check runs: polling picks it up from there.
    onSuccess: (job) => {
      queryClient.setQueryData([`/api/imports/${job.id}`], job)
      return queryClient.invalidateQueries({ queryKey: [`/api/imports/${job.id}`] })
    },
  })
}

/** An import, polled while it or its switch check runs. */
export function useImportJob(id: number | null) {
  return useQuery<ImportJob>({
    queryKey: [`/api/imports/${id}`],
    enabled: id !== null,
    refetchInterval: (q) => {
      const j = q.state.data
      return j && (j.status === 'queued' || j.status === 'running' || j.check.running) ? 1000 : false
    },
  })
}

import { ArrowRightLeft, CheckCircle2, FileUp } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import {
  importSources,
  useCheckSwitch,
  useDryRun,
  useImportJob,
  useStartImport,
  type ImportItem,
  type ImportJob,
  type ImportRequest,
  type ImportSource,
} from '../api/imports'

/** A verified domain a workspace may print the imported codes on. */
export interface ImportDomain {
  id: number
  domain: string
}

const statusLabel: Record<ImportItem['status'], string> = {
  pending: 'Create',
  created: 'Created',
  exists: 'Already there',
  conflict: 'Conflict',
  failed: 'Failed',
}

/**
 * Import links from another shortener (issue 34): the source, its URL and
 * key or its file; a dry run's table; the job's progress; and the switch
 * check that says when every old short URL answers the same on Squarely.
 */
export function ImportCard({ domains, baseHost }: { domains: ImportDomain[]; baseHost: string }) {
  const [req, setReq] = useState<ImportRequest>({ source: 'csv', baseUrl: '', apiKey: '', oldBaseUrl: '', domainId: '' })
  const [error, setError] = useState<string>()
  const [jobId, setJobId] = useState<number | null>(null)
  const dryRun = useDryRun()
  const start = useStartImport()
  const job = useImportJob(jobId)
  const source = importSources.find((s) => s.value === req.source)
  const isFile = source?.file ?? true
  const patch = (p: Partial<ImportRequest>) => setReq((r) => ({ ...r, ...p }))

  function failed(e: unknown) {
    const fields = serverFieldErrors(e)
    setError(fields ? Object.values(fields).join(' ') : (serverMessage(e) ?? 'The import failed'))
  }

  function onDryRun(e: FormEvent) {
    e.preventDefault()
    setError(undefined)
    dryRun.mutate(req, { onError: failed })
  }

  function onImport() {
    setError(undefined)
    start.mutate(req, { onSuccess: (j) => setJobId(j.id), onError: failed })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileUp className="size-5" aria-hidden="true" /> Import links
        </CardTitle>
        <CardDescription>
          Bring your links from another shortener with their short codes: check first what will be created, then import, then prove that every old
          short URL answers the same here before you move its DNS.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onDryRun}>
          <div className="grid gap-1">
            <Label htmlFor="import-source">Source</Label>
            <NativeSelect id="import-source" value={req.source} onChange={(e) => patch({ source: e.target.value as ImportSource })}>
              {importSources.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          {isFile ? (
            <div className="grid gap-1">
              <Label htmlFor="import-file">CSV file</Label>
              <Input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => patch({ file: e.target.files?.[0] })} />
            </div>
          ) : (
            <>
              <div className="grid gap-1">
                <Label htmlFor="import-base">Service URL</Label>
                <Input id="import-base" value={req.baseUrl} placeholder={source?.placeholder} onChange={(e) => patch({ baseUrl: e.target.value })} />
              </div>
              <div className="grid gap-1">
                <Label htmlFor="import-key">API key</Label>
                <Input id="import-key" type="password" autoComplete="off" value={req.apiKey} onChange={(e) => patch({ apiKey: e.target.value })} />
                {req.source === 'yourls' && <p className="text-xs text-muted-foreground">The signature token, or username:password</p>}
              </div>
            </>
          )}
          <div className="grid gap-1">
            <Label htmlFor="import-old">Old short host</Label>
            <Input id="import-old" value={req.oldBaseUrl} placeholder="https://go.example.com" onChange={(e) => patch({ oldBaseUrl: e.target.value })} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="import-domain">Domain</Label>
            <NativeSelect id="import-domain" value={req.domainId} onChange={(e) => patch({ domainId: e.target.value })}>
              <option value="">{baseHost} (the base URL)</option>
              {domains.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.domain}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" disabled={dryRun.isPending}>
              {dryRun.isPending ? 'Checking...' : 'Dry run'}
            </Button>
            <Button type="button" variant="outline" disabled={!dryRun.data || start.isPending || jobId !== null} onClick={onImport}>
              Import {dryRun.data ? `${dryRun.data.create} links` : ''}
            </Button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700 sm:col-span-2">
              {error}
            </p>
          )}
        </form>
        {dryRun.data && !job.data && (
          <section aria-label="Dry run" className="grid gap-2">
            <p className="text-sm text-slate-700" data-testid="dry-run-summary">
              {dryRun.data.total} links: {dryRun.data.create} to create, {dryRun.data.conflicts} conflicts, {dryRun.data.skip} already there.
            </p>
            <ItemsTable items={dryRun.data.items} />
          </section>
        )}
        {job.data && <JobStatus job={job.data} />}
      </CardContent>
    </Card>
  )
}

function ItemsTable({ items }: { items: ImportItem[] }) {
  return (
    <div className="max-h-96 overflow-auto rounded-md border border-slate-200">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="p-2">Row</th>
            <th className="p-2">Short code</th>
            <th className="p-2">Destination</th>
            <th className="p-2">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {items.map((it) => (
            <tr key={it.row} className="border-t border-slate-100">
              <td className="p-2">{it.row}</td>
              <td className="p-2 font-mono">{it.shortCode || <span className="text-slate-500">random</span>}</td>
              <td className="max-w-64 truncate p-2">{it.destination}</td>
              <td className="p-2">
                {statusLabel[it.status]}
                {it.reason && <span className="block text-xs text-slate-600">{it.reason}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function JobStatus({ job }: { job: ImportJob }) {
  const check = useCheckSwitch()
  const c = job.check
  const oldHost = job.oldBaseUrl.replace(/^https?:\/\//, '').replace(/\/.*$/, '')
  return (
    <section aria-label="Import" className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={job.status === 'done' ? 'emerald' : job.status === 'failed' ? 'red' : 'amber'}>{job.status}</Badge>
        <span data-testid="import-progress">
          {job.progress}% · {job.created} created, {job.skipped} already there, {job.conflicts} conflicts, {job.failed} failed
        </span>
      </div>
      <progress className="w-full" max={100} value={job.progress} aria-label="Import progress" />
      {job.error && <p className="text-sm text-red-700">{job.error}</p>}
      {job.status === 'done' && job.oldBaseUrl && (
        <div className="grid gap-2 rounded-md bg-slate-50 p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="flex items-center gap-2 font-medium">
              <ArrowRightLeft className="size-4" aria-hidden="true" /> Switch check
            </span>
            <Button size="sm" disabled={c.running || check.isPending} onClick={() => check.mutate(job.id)}>
              {c.running ? 'Checking...' : 'Check every short URL'}
            </Button>
          </div>
          {c.checked > 0 && (
            <p data-testid="switch-summary">
              {c.same} of {c.checked} answer the same on Squarely.
            </p>
          )}
          {c.ready && (
            <p className="flex items-center gap-2 text-emerald-800" data-testid="ready-to-switch">
              <CheckCircle2 className="size-4" aria-hidden="true" /> Ready to switch: point {oldHost} at Squarely (a CNAME record to this
              site{job.domain ? `, as for ${job.domain}` : ''}).
            </p>
          )}
          {c.different.length > 0 && (
            <ul className="grid gap-1">
              {c.different.map((d) => (
                <li key={d.shortCode} className="break-all font-mono text-xs">
                  {d.shortCode}: old {d.old} · new {d.new}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ItemsTable items={job.items} />
    </section>
  )
}

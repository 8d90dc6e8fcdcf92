import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Alert } from '@/components/ui/alert'
import { failureMessage } from '@/lib/api-client'
import { countOf } from '@/lib/count'
import { formatDateTime } from '@/lib/dates'
import {
  running,
  useBulkEditJob,
  useBulkEdits,
  useDryRun,
  useStartBulkEdit,
  useUndoBulkEdit,
  type BulkChanges,
  type BulkEditJob,
  type BulkSelection,
  type DryRun,
  type UndoResult,
} from '../api/bulk-edit'

interface Named {
  id: number
  name: string
}

export interface BulkEditDialogProps {
  selection: BulkSelection
  /** What the selection is, for the title: "3 selected codes", "codes matching this filter". */
  label: string
  open: boolean
  onOpenChange: (open: boolean) => void
  tags?: Named[]
  folders?: Named[]
  /** Moves the selection to another workspace instead, when the user may (the dashboard's move dialog). */
  onMove?: () => void
}

type Kind = 'replace' | 'template' | 'pause' | 'resume' | 'addTag' | 'removeTag' | 'folder' | 'delete'

const kinds: { value: Kind; label: string }[] = [
  { value: 'replace', label: 'Replace part of the destination (e.g. the host)' },
  { value: 'template', label: 'Set the destination from a template' },
  { value: 'pause', label: 'Pause' },
  { value: 'resume', label: 'Resume' },
  { value: 'addTag', label: 'Add a tag' },
  { value: 'removeTag', label: 'Remove a tag' },
  { value: 'folder', label: 'Move to a folder' },
  { value: 'delete', label: 'Delete' },
]

/**
 * The bulk edit of a selection (docs/API.md "Bulk edits"): a change, then
 * the dry run's before and after, then the job with its progress, and its
 * undo; the workspace's recent jobs, each undoable for a day.
 */
export function BulkEditDialog({ selection, label, open, onOpenChange, tags = [], folders = [], onMove }: BulkEditDialogProps) {
  const [kind, setKind] = useState<Kind>('replace')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [template, setTemplate] = useState('{destination}')
  const [target, setTarget] = useState('')
  const [preview, setPreview] = useState<DryRun | null>(null)
  const [jobID, setJobID] = useState<number | null>(null)
  const dryRun = useDryRun()
  const start = useStartBulkEdit()

  const changes = (): BulkChanges => {
    switch (kind) {
      case 'replace':
        return { destination: { replace: { from, to } } }
      case 'template':
        return { destination: template }
      case 'pause':
        return { paused: true }
      case 'resume':
        return { paused: false }
      case 'addTag':
        return { addTags: [Number(target)] }
      case 'removeTag':
        return { removeTags: [Number(target)] }
      case 'folder':
        return { folderId: target ? Number(target) : null }
      case 'delete':
        return { delete: true }
    }
  }
  const names = { tags: new Map(tags.map((t) => [t.id, t.name])), folders: new Map(folders.map((f) => [f.id, f.name])) }
  const needsTarget = kind === 'addTag' || kind === 'removeTag'
  const ready = (kind !== 'replace' || from !== '') && (kind !== 'template' || template.trim() !== '') && (!needsTarget || target !== '')

  const onPreview = (e: FormEvent) => {
    e.preventDefault()
    dryRun.mutate({ selection, changes: changes() }, { onSuccess: setPreview })
  }
  const onApply = () => start.mutate({ selection, changes: changes() }, { onSuccess: (j) => setJobID(j.id) })
  const reset = () => {
    setPreview(null)
    setJobID(null)
    dryRun.reset()
    start.reset()
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset()
        onOpenChange(next)
      }}
    >
      <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Bulk edit {label}</DialogTitle>
          <DialogDescription>Pick a change, see exactly what it does, then apply it. A bulk edit can be undone for 24 hours.</DialogDescription>
        </DialogHeader>
        {onMove && jobID === null && !preview && (
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={onMove}>
            Move to workspace instead
          </Button>
        )}
        {jobID !== null ? (
          <JobProgress id={jobID} onClose={() => onOpenChange(false)} />
        ) : preview ? (
          <>
            <Preview preview={preview} names={names} />
            {start.error && <Alert variant="destructive">{failureMessage(start.error)}</Alert>}
            <DialogFooter>
              <Button variant="outline" onClick={() => setPreview(null)}>
                Back
              </Button>
              <Button onClick={onApply} disabled={preview.changing === 0 || start.isPending}>
                Apply to {countOf(preview.changing, 'code')}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onPreview} className="grid gap-4">
            <div className="grid gap-1.5">
              <Label htmlFor="bulk-edit-kind">Change</Label>
              <NativeSelect id="bulk-edit-kind" value={kind} onChange={(e) => (setKind(e.target.value as Kind), setTarget(''))}>
                {kinds.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {kind === 'replace' && (
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="grid gap-1.5">
                  <Label htmlFor="bulk-edit-from">Replace</Label>
                  <Input id="bulk-edit-from" value={from} onChange={(e) => setFrom(e.target.value)} placeholder="https://old.example.com" />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="bulk-edit-to">With</Label>
                  <Input id="bulk-edit-to" value={to} onChange={(e) => setTo(e.target.value)} placeholder="https://new.example.com" />
                </div>
              </div>
            )}
            {kind === 'template' && (
              <div className="grid gap-1.5">
                <Label htmlFor="bulk-edit-template">Destination</Label>
                <Input id="bulk-edit-template" value={template} onChange={(e) => setTemplate(e.target.value)} aria-describedby="bulk-edit-template-help" />
                <p id="bulk-edit-template-help" className="text-xs text-slate-600">
                  {'{destination}'}, {'{shortCode}'} and {'{name}'} are replaced by each code&apos;s own.
                </p>
              </div>
            )}
            {(needsTarget || kind === 'folder') && (
              <div className="grid gap-1.5">
                <Label htmlFor="bulk-edit-target">{kind === 'folder' ? 'Folder' : 'Tag'}</Label>
                <NativeSelect id="bulk-edit-target" value={target} onChange={(e) => setTarget(e.target.value)}>
                  <option value="">{kind === 'folder' ? 'No folder' : 'Choose a tag'}</option>
                  {(kind === 'folder' ? folders : tags).map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            )}
            {dryRun.error && <Alert variant="destructive">{failureMessage(dryRun.error)}</Alert>}
            <DialogFooter>
              <Button type="submit" disabled={!ready || dryRun.isPending}>
                {dryRun.isPending ? 'Checking...' : 'Preview changes'}
              </Button>
            </DialogFooter>
            <History />
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

/** Tag and folder names by id, for the before and after. */
export type Names = { tags: Map<number, string>; folders: Map<number, string> }

/** A changed field's value as a person reads it. */
function show(field: string, value: unknown, names: Names): string {
  if (value === null || value === undefined) return field === 'folderId' ? 'no folder' : 'none'
  if (field === 'tags' && Array.isArray(value)) return value.map((id: number) => names.tags.get(id) ?? `#${id}`).join(', ') || 'no tags'
  if (field === 'folderId') return names.folders.get(value as number) ?? `#${String(value)}`
  if (typeof value === 'boolean') return field === 'paused' ? (value ? 'paused' : 'active') : String(value)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const fieldLabels: Record<string, string> = { destination: 'Destination', paused: 'Status', tags: 'Tags', folderId: 'Folder', deleted: 'Deleted', routing: 'Routing', domainId: 'Domain', style: 'Style' }

function Values({ values, names }: { values: Record<string, unknown>; names: Names }) {
  const keys = Object.keys(values)
  if (keys.length === 0) return <span className="text-slate-500">unchanged</span>
  return (
    <ul>
      {keys.map((k) => (
        <li key={k} className="break-all">
          <span className="text-slate-500">{fieldLabels[k] ?? k}:</span> {show(k, values[k], names)}
        </li>
      ))}
    </ul>
  )
}

/** A dry run: what will change (the first rows, before and after) and what will fail. unit counts the selection: codes, or a spreadsheet's rows. */
export function Preview({ preview, names, unit = 'code' }: { preview: DryRun; names: Names; unit?: string }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-700" data-testid="bulk-edit-summary">
        {countOf(preview.selected, unit)} selected: {preview.changing} will change, {preview.failures.length} will fail.
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Before and after, the first {preview.rows.length} codes</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="p-2">
                Code
              </th>
              <th scope="col" className="p-2">
                Before
              </th>
              <th scope="col" className="p-2">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-100 align-top">
                <th scope="row" className="p-2 font-medium">
                  {r.row !== undefined && <span className="block text-xs font-normal text-slate-500">Row {r.row}</span>}
                  {r.name}
                  {r.shortCode && <span className="block text-xs font-normal text-slate-500">{r.shortCode}</span>}
                </th>
                <td className="p-2">
                  <Values values={r.before} names={names} />
                </td>
                <td className="p-2">
                  <Values values={r.after} names={names} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.failures.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-red-700">Will fail</h3>
          <ul className="text-sm text-slate-700">
            {preview.failures.slice(0, 20).map((f) => (
              <li key={`${f.row ?? ''}-${f.id}`}>
                {f.row !== undefined && `Row ${f.row}, `}
                {f.id}: {f.reason}
              </li>
            ))}
            {preview.failures.length > 20 && <li>and {preview.failures.length - 20} more</li>}
          </ul>
        </div>
      )}
    </div>
  )
}

/** The job's progress, then its outcome and its undo. */
export function JobProgress({ id, onClose }: { id: number; onClose: () => void }) {
  const job = useBulkEditJob(id).data
  const [undone, setUndone] = useState<UndoResult | null>(null)
  const undo = useUndoBulkEdit()
  if (!job) return <p className="text-sm text-slate-600">Starting...</p>
  const busy = running(job)
  return (
    <div className="grid gap-3">
      <div role="progressbar" aria-label="Bulk edit progress" aria-valuemin={0} aria-valuemax={job.total} aria-valuenow={job.processed} className="h-2 overflow-hidden rounded bg-slate-200">
        <div className="h-full bg-primary transition-all" style={{ width: `${job.total ? (100 * job.processed) / job.total : 0}%` }} />
      </div>
      <p className="text-sm text-slate-700" role="status" data-testid="bulk-edit-status">
        {busy
          ? `Changing codes: ${job.processed} of ${job.total}`
          : job.status === 'undone'
            ? 'Undone.'
            : `Done: ${job.processed - job.failed} changed, ${job.failed} failed.`}
        {job.error && ` ${job.error}`}
      </p>
      {undone && (
        <p className="text-sm text-slate-700" data-testid="bulk-edit-undone">
          Restored {countOf(undone.restored, 'code')}.
          {undone.skipped.length > 0 && ` Left as they were: ${undone.skipped.map((s) => `${s.id} (${s.reason})`).join(', ')}.`}
        </p>
      )}
      {undo.error && <Alert variant="destructive">{failureMessage(undo.error)}</Alert>}
      <DialogFooter>
        {!busy && job.undoUntil && !undone && (
          <Button variant="outline" disabled={undo.isPending} onClick={() => undo.mutate(id, { onSuccess: setUndone })}>
            Undo
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </DialogFooter>
    </div>
  )
}

/** The workspace's recent bulk edits, each with its undo while it lasts. */
function History() {
  const [shown, setShown] = useState(false)
  const list = useBulkEdits(shown)
  const undo = useUndoBulkEdit()
  return (
    <div className="border-t border-slate-200 pt-3">
      <Button type="button" variant="ghost" size="sm" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? 'Hide recent bulk edits' : 'Recent bulk edits'}
      </Button>
      {shown && (
        <ul className="mt-2 grid gap-2 text-sm" aria-label="Recent bulk edits">
          {list.data?.items.length === 0 && <li className="text-slate-600">No bulk edits yet.</li>}
          {list.data?.items.map((j: BulkEditJob) => (
            <li key={j.id} className="flex flex-wrap items-center gap-2">
              <span className="mr-auto">
                #{j.id} · {formatDateTime(j.createdAt)} · {countOf(j.total, 'code')} · {j.status}
              </span>
              {j.undoUntil && (
                <Button type="button" size="sm" variant="outline" disabled={undo.isPending} onClick={() => undo.mutate(j.id)}>
                  Undo #{j.id}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {undo.error && <Alert variant="destructive">{failureMessage(undo.error)}</Alert>}
    </div>
  )
}

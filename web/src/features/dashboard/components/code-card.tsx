import { ArrowRightLeft, Bell, BellOff, CircleAlert, Copy, CopyPlus, Download, Eye, Lock, Paintbrush, Pause, Pencil, Play, ScanLine, Trash2 } from 'lucide-react'
import { lazy, Suspense, useId, useState } from 'react'
import { DialogSpinner } from '@/components/ui/spinner'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { formatCents } from '@/lib/billing'
import { QrTypeIcon, qrTypeLabel } from '@/lib/qr-types'
import { toast } from '@/lib/use-toast'
import { useDuplicateCode, useMuteAlerts, usePauseCode, useRenameCode, useResumeCode } from '../api/codes'
import { codeImageUrl, type DynamicCode, type SavedCode } from '../api/types'
import { CodeName } from './code-name'
import { DeleteDialog } from './delete-dialog'
import { v1ID } from '../api/move'
import { PreviewDialog } from './preview-dialog'
import { useRestyleSlot } from './restyle-slot'
import { Badge } from '@/components/ui/badge'
import { routingBadges } from '../lib/routing-badges'
import { countOf, nounFor } from '@/lib/count'
import { useCan } from '@/lib/workspace'
import { CodeLabels } from './code-labels'
import { formatDate, formatDateTime } from '@/lib/dates'

// The dialogs with forms load when first opened: the download options (with the generator's print
// options), the edit dialog (routing, UTM), the password's and the move's; the list's first cards do not wait for them.
const DownloadDialog = lazy(() => import('./download-dialog').then((m) => ({ default: m.DownloadDialog })))
const EditDestinationDialog = lazy(() => import('./edit-destination-dialog').then((m) => ({ default: m.EditDestinationDialog })))
const PasswordDialog = lazy(() => import('./password-dialog').then((m) => ({ default: m.PasswordDialog })))
const MoveDialog = lazy(() => import('./move-dialog').then((m) => ({ default: m.MoveDialog })))

/** Why and since when a code's destination fails, as the link checker found (issue 24). */
function Unreachable({ code }: { code: DynamicCode }) {
  const { reason, url, since } = code.health
  const at = since ? formatDateTime(since) : ''
  return (
    <p className="flex min-w-0 items-start gap-1 text-xs text-red-700" data-testid="health-reason" title={url}>
      <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      <span className="min-w-0 break-words">
        {reason || 'No answer'}
        {at && (
          <>
            {' '}
            since <time dateTime={since ?? undefined}>{at}</time>
          </>
        )}
        {url !== code.destination && <> · {url}</>}
      </span>
    </p>
  )
}

/** What a payment code took: its successful payments and their total. */
function PaymentStats({ count, total }: { count: number; total: number }) {
  return (
    <Badge tone="emerald" className="font-medium" data-testid="payment-stats">
      {countOf(count, 'payment')} · {formatCents(total)}
    </Badge>
  )
}

async function copyShortLink(url: string) {
  try {
    await navigator.clipboard.writeText(url)
    toast({ title: 'Short link copied', description: url })
  } catch {
    toast({ title: 'Copy failed', description: `Select the link and copy it: ${url}`, variant: 'destructive' })
  }
}

/** A labelled card button: grows to share its row, wraps to the next when the row is full. */
const wide = 'flex-1 basis-24'

type Dialog = 'preview' | 'download' | 'edit' | 'password' | 'delete' | 'restyle' | 'move' | null

/** One saved code. The paused view's cards offer Resume, View and Delete only. */
export function CodeCard({
  code,
  paused = false,
  selected = false,
  onSelect,
}: {
  code: SavedCode
  paused?: boolean
  selected?: boolean
  onSelect?: (on: boolean) => void
}) {
  const [dialog, setDialog] = useState<Dialog>(null)
  const rename = useRenameCode()
  const pause = usePauseCode()
  const resume = useResumeCode()
  const duplicate = useDuplicateCode()
  const muteAlerts = useMuteAlerts()
  const restyle = useRestyleSlot()
  const dynamic = code.qrMode === 'dynamic' ? code : null
  const closeOr = (which: Dialog) => (open: boolean) => setDialog(open ? which : null)
  // A viewer of the workspace only looks: the server refuses their changes, so no buttons for them.
  const mayEdit = useCan('editCodes')
  // The paused view's cards offer Resume, View and Delete only.
  const mayMove = useCan('moveCodes') && !paused
  // An active dynamic code: its destination can change and it can be paused.
  const editable = mayEdit && dynamic && !paused ? dynamic : null
  // Every card has the same buttons (Edit, Download, …): the card is a group named after the code, so a screen reader says which code a button acts on.
  const nameId = useId()

  return (
    <Card role="group" aria-labelledby={nameId} className="flex flex-col overflow-hidden transition-shadow hover:shadow-md" data-testid="qr-card">
      <div className="flex items-start justify-between gap-2 px-4 pt-4">
        <span className="inline-flex shrink-0 items-center gap-1.5 text-xs font-medium text-slate-600">
          {onSelect && (
            <input
              type="checkbox"
              className="size-4 cursor-pointer accent-[var(--color-primary)]"
              aria-label={`Select ${code.name}`}
              checked={selected}
              onChange={(e) => onSelect(e.target.checked)}
            />
          )}
          <span className="grid size-7 place-items-center rounded-lg bg-primary-50 text-primary">
            <QrTypeIcon type={code.qrType} className="size-4" />
          </span>
          {qrTypeLabel(code.qrType)}
        </span>
        <span className="flex flex-wrap items-center justify-end gap-1.5">
          {dynamic && (
            <>
              <Badge className="font-medium">
                <ScanLine aria-hidden="true" />
                <span data-testid="scan-count">{dynamic.scanCount}</span> {nounFor(dynamic.scanCount, 'scan')}
              </Badge>
              <Badge tone="violet">Dynamic</Badge>
              {dynamic.isProtected && (
                <Badge tone="sky">
                  <Lock aria-hidden="true" />
                  Protected
                </Badge>
              )}
              {dynamic.health.status === 'down' && (
                <Badge tone="red" data-testid="health-badge">
                  <CircleAlert aria-hidden="true" />
                  Destination unreachable
                </Badge>
              )}
              {routingBadges(dynamic).map((label) => (
                <Badge key={label} tone={label === 'Ended' ? 'amber' : 'sky'} data-testid="routing-badge">
                  {label}
                </Badge>
              ))}
            </>
          )}
          {code.payments && <PaymentStats {...code.payments} />}
          {paused && <Badge tone="amber">Paused</Badge>}
        </span>
      </div>

      <button
        type="button"
        onClick={() => setDialog('preview')}
        className="mx-4 mt-3 flex cursor-zoom-in justify-center rounded-xl border border-slate-100 bg-slate-50 p-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
        aria-label={`Preview ${code.name}`}
      >
        <img src={codeImageUrl(code)} alt="" loading="lazy" className={paused ? 'size-36 opacity-40 grayscale' : 'size-36'} />
      </button>

      <div className="grid gap-0.5 px-4 pb-3 pt-3">
        <CodeName id={nameId} name={code.name} onRename={mayEdit ? (name) => rename.mutate({ code, name }) : undefined} />
        <p className="text-xs text-slate-500">
          Created <time dateTime={code.createdAt}>{formatDate(code.createdAt)}</time>
        </p>
        {dynamic && (
          <>
            <p className="truncate text-xs text-slate-500" title={dynamic.destination}>
              → {dynamic.destination}
            </p>
            {dynamic.health.status === 'down' && <Unreachable code={dynamic} />}
            {editable && (
            <div className="flex min-w-0 items-center gap-1">
              <span className="truncate font-mono text-xs text-slate-600" title={dynamic.shortUrl}>
                {dynamic.shortUrl}
              </span>
              <Button size="sm" variant="ghost" className="h-7 w-7 shrink-0 px-0" aria-label="Copy short link" title="Copy short link" onClick={() => void copyShortLink(dynamic.shortUrl)}>
                <Copy aria-hidden="true" />
              </Button>
            </div>
            )}
          </>
        )}
      </div>

      <CodeLabels code={code} editable={!paused} />

      {/* One wrapping row: at any card width each button keeps its label and stays inside the card. */}
      <div className="mt-auto flex flex-wrap gap-1.5 border-t border-slate-100 p-3">
        {paused && dynamic && mayEdit ? (
          <Button size="sm" className={wide} onClick={() => resume.mutate(dynamic)} disabled={resume.isPending}>
            <Play aria-hidden="true" />
            Resume
          </Button>
        ) : (
          <Button size="sm" variant="secondary" className={wide} onClick={() => setDialog('download')}>
            <Download aria-hidden="true" />
            Download
          </Button>
        )}
        <Button size="sm" variant="outline" className={wide} onClick={() => setDialog('preview')}>
          <Eye aria-hidden="true" />
          View
        </Button>
        {editable && (
          <>
            <Button size="sm" variant="outline" className={wide} onClick={() => setDialog('edit')}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button size="sm" variant="outline" className={wide} onClick={() => pause.mutate(editable)} disabled={pause.isPending}>
              <Pause aria-hidden="true" />
              Pause
            </Button>
          </>
        )}
        {!paused && mayEdit && (
          <>
            {restyle && (
              <Button size="sm" variant="outline" className={wide} onClick={() => setDialog('restyle')}>
                <Paintbrush aria-hidden="true" />
                Restyle
              </Button>
            )}
            <Button size="sm" variant="outline" className={wide} onClick={() => duplicate.mutate(code)} disabled={duplicate.isPending}>
              <CopyPlus aria-hidden="true" />
              Duplicate
            </Button>
          </>
        )}
        {editable && (
          <Button size="sm" variant="outline" className="w-9 shrink-0 px-0" aria-label="Password" title="Password" onClick={() => setDialog('password')}>
            <Lock aria-hidden="true" />
          </Button>
        )}
        {editable && (
          <Button
            size="sm"
            variant="outline"
            className="w-9 shrink-0 px-0"
            aria-label="Mute alerts"
            aria-pressed={editable.alertsMuted}
            title={editable.alertsMuted ? 'Alerts muted: no e-mails or webhook events about this code' : 'Mute alerts'}
            disabled={muteAlerts.isPending}
            onClick={() => muteAlerts.mutate({ code: editable, muted: !editable.alertsMuted })}
          >
            {editable.alertsMuted ? <BellOff aria-hidden="true" /> : <Bell aria-hidden="true" />}
          </Button>
        )}
        {mayMove && (
          <Button size="sm" variant="outline" className="w-9 shrink-0 px-0" aria-label="Move to workspace" title="Move to workspace" onClick={() => setDialog('move')}>
            <ArrowRightLeft aria-hidden="true" />
          </Button>
        )}
        {mayEdit && (
          <Button size="sm" variant="outline" className="w-9 shrink-0 px-0 text-red-600 hover:bg-red-50 hover:text-red-700" aria-label="Delete" title="Delete" onClick={() => setDialog('delete')}>
            <Trash2 aria-hidden="true" />
          </Button>
        )}
      </div>

      {/* Each dialog mounts when opened: a closed one costs nothing, and the first page's cards render at once. */}
      {dialog === 'preview' && <PreviewDialog code={code} open onOpenChange={closeOr('preview')} />}
      {dialog === 'download' && (
        <Suspense fallback={<DialogSpinner label="Loading download options..." />}>
          <DownloadDialog code={code} open onOpenChange={closeOr('download')} />
        </Suspense>
      )}
      {dialog === 'delete' && <DeleteDialog code={code} open onOpenChange={closeOr('delete')} />}
      {dialog === 'move' && mayMove && (
        <Suspense fallback={<DialogSpinner label="Loading..." />}>
          <MoveDialog selection={{ ids: [v1ID(code)] }} label={code.name} open onOpenChange={closeOr('move')} />
        </Suspense>
      )}
      {dialog === 'edit' && editable && (
        <Suspense fallback={<DialogSpinner label="Loading the editor..." />}>
          <EditDestinationDialog code={editable} open onOpenChange={closeOr('edit')} />
        </Suspense>
      )}
      {dialog === 'password' && editable && (
        <Suspense fallback={<DialogSpinner label="Loading..." />}>
          <PasswordDialog code={editable} open onOpenChange={closeOr('password')} />
        </Suspense>
      )}
      {dialog === 'restyle' && restyle?.({ code, open: true, onOpenChange: closeOr('restyle') })}
    </Card>
  )
}

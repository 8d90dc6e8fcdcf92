import { ArrowRightLeft, ListChecks, Pause, Play, Trash2, X } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { SavedCode } from '../api/types'
import { useBulkAction } from '../api/codes'
import { countOf } from '@/lib/count'

/** Actions on the selected codes: pause (active dynamic ones), resume (paused view), delete, and the bulk edit and move when given. */
export function BulkBar({
  selected,
  paused,
  onDone,
  onBulkEdit,
  onMove,
}: {
  selected: SavedCode[]
  paused: boolean
  onDone: () => void
  onBulkEdit?: () => void
  onMove?: () => void
}) {
  const bulk = useBulkAction()
  const [confirmDelete, setConfirmDelete] = useState(false)
  if (selected.length === 0) return null
  const dynamics = selected.filter((c) => c.qrMode === 'dynamic')
  const run = (action: 'pause' | 'resume' | 'delete', codes: SavedCode[]) => bulk.mutate({ action, codes }, { onSettled: onDone })

  return (
    <div role="toolbar" aria-label="Selected codes" className="flex flex-wrap items-center gap-2 rounded-xl border border-primary/30 bg-primary-50 p-2 pl-3">
      <span className="mr-auto whitespace-nowrap text-sm font-medium text-slate-800">{selected.length} selected</span>
      {!paused && (
        <Button size="sm" variant="outline" disabled={dynamics.length === 0 || bulk.isPending} onClick={() => run('pause', dynamics)}>
          <Pause aria-hidden="true" />
          Pause
        </Button>
      )}
      {paused && (
        <Button size="sm" variant="outline" disabled={bulk.isPending} onClick={() => run('resume', dynamics)}>
          <Play aria-hidden="true" />
          Resume
        </Button>
      )}
      {onBulkEdit && (
        <Button size="sm" variant="outline" onClick={onBulkEdit}>
          <ListChecks aria-hidden="true" />
          Bulk edit
        </Button>
      )}
      {onMove && (
        <Button size="sm" variant="outline" onClick={onMove}>
          <ArrowRightLeft aria-hidden="true" />
          Move to workspace
        </Button>
      )}
      <Button size="sm" variant="outline" className="text-red-600" disabled={bulk.isPending} onClick={() => setConfirmDelete(true)}>
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
      <Button size="sm" variant="ghost" aria-label="Clear selection" onClick={onDone}>
        <X aria-hidden="true" />
      </Button>
      <Dialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete {countOf(selected.length, 'QR code')}</DialogTitle>
            <DialogDescription>This cannot be undone. Printed dynamic codes stop redirecting.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              className="bg-red-600 hover:bg-red-700"
              onClick={() => {
                setConfirmDelete(false)
                run('delete', selected)
              }}
            >
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}

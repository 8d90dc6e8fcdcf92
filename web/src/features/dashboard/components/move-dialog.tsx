import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { failureMessage } from '@/lib/api-client'
import { countOf } from '@/lib/count'
import { toast } from '@/lib/use-toast'
import { useMoveCodes, useMoveTargets, type MoveResult, type MoveSelection } from '../api/move'

export interface MoveDialogProps {
  selection: MoveSelection
  /** What is selected, for the title: "Menu card", "3 selected codes". */
  label: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** After a move ended (the selection is gone from this workspace). */
  onMoved?: () => void
}

/** The result in a toast: how many moved, and why the others stayed. */
function report(move: MoveResult, target: string) {
  const moved = move.processed - move.failed
  if (move.failed === 0 && move.status === 'done') {
    toast({ title: `Moved ${countOf(moved, 'code')} to ${target}` })
    return
  }
  const reasons = [...new Set(move.failures.map((f) => f.reason))].slice(0, 3).join(' ')
  toast({
    title: `Moved ${moved} of ${countOf(move.total, 'code')} to ${target}`,
    description: [move.error, reasons].filter(Boolean).join(' '),
    variant: moved === 0 ? 'destructive' : undefined,
  })
}

/**
 * Move to workspace: the user's other workspaces where they are an owner
 * or admin (the server checks both sides again), one chosen by radio
 * buttons, then Move, its progress while a large move runs, and the result
 * in a toast.
 */
export function MoveDialog({ selection, label, open, onOpenChange, onMoved }: MoveDialogProps) {
  const targets = useMoveTargets(open)
  const [to, setTo] = useState<number | null>(null)
  const [progress, setProgress] = useState<MoveResult | null>(null)
  const move = useMoveCodes()
  const close = (next: boolean) => {
    if (move.isPending) return // the move goes on; its result comes as a toast
    if (!next) {
      setTo(null)
      setProgress(null)
      move.reset()
    }
    onOpenChange(next)
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    const target = targets.data?.find((w) => w.id === to)
    if (!target) return
    move.mutate(
      { selection, to: target.id, onProgress: setProgress },
      {
        onSuccess: (result) => {
          report(result, target.name)
          setTo(null)
          setProgress(null)
          onOpenChange(false)
          onMoved?.()
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Move {label} to another workspace</DialogTitle>
          <DialogDescription>
            Codes keep their short links, scans and routing. They leave their folder, and their tags move by name. You need to be an admin or owner of both workspaces.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="grid gap-4">
          {targets.isPending ? (
            <p className="text-sm text-slate-600">Loading workspaces...</p>
          ) : !targets.data?.length ? (
            <p className="text-sm text-slate-600">You are not an admin or owner of any other workspace.</p>
          ) : (
            <fieldset className="grid gap-2" disabled={move.isPending}>
              <legend className="mb-1 text-sm font-medium text-slate-800">Move to</legend>
              {targets.data.map((w) => (
                <label key={w.id} className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-primary">
                  <input type="radio" name="move-target" value={w.id} checked={to === w.id} onChange={() => setTo(w.id)} className="accent-[var(--color-primary)]" />
                  {w.name}
                  <span className="ml-auto text-xs capitalize text-slate-500">{w.role}</span>
                </label>
              ))}
            </fieldset>
          )}
          {move.isPending && (
            <>
              <div role="progressbar" aria-label="Move progress" aria-valuemin={0} aria-valuemax={progress?.total ?? 0} aria-valuenow={progress?.processed ?? 0} className="h-2 overflow-hidden rounded bg-slate-200">
                <div className="h-full bg-primary transition-all" style={{ width: `${progress?.total ? (100 * progress.processed) / progress.total : 0}%` }} />
              </div>
              <p className="text-sm text-slate-700" role="status">
                {progress ? `Moving codes: ${progress.processed} of ${progress.total}` : 'Moving codes...'}
              </p>
            </>
          )}
          {move.error && <Alert variant="destructive">{failureMessage(move.error)}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={move.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={to === null || move.isPending}>
              Move
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

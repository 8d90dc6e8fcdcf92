import { Loader2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useDeleteCode } from '../api/codes'
import type { SavedCode } from '../api/types'

/** Delete QR Code: confirmation first; the dialog closes once the call ends, whether or not it succeeded (spec 01 §4). */
export function DeleteDialog({ code, open, onOpenChange }: { code: SavedCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteCode()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete QR Code</DialogTitle>
          <DialogDescription>
            Are you sure you want to delete “{code.name}”? This action cannot be undone.
            {code.qrMode === 'dynamic' && ' Printed copies of this code will stop working.'}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate(code, { onSettled: () => onOpenChange(false) })}>
            {remove.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Delete
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

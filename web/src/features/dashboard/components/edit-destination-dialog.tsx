import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { fieldMessage } from '@/lib/api-client'
import { useEditDestination } from '../api/codes'
import { destinationSchema, type DestinationInput } from '../api/schemas'
import type { DynamicCode } from '../api/types'


/** Edit Dynamic QR Code: only the destination changes; the printed image stays valid. */
export function EditDestinationDialog({ code, open, onOpenChange }: { code: DynamicCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const edit = useEditDestination()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<DestinationInput>({ resolver: zodResolver(destinationSchema), values: { destination: code.destination } })

  const changeOpen = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }
  const submit = handleSubmit(({ destination }) =>
    edit.mutate(
      { code, destination },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => {
          const message = fieldMessage(error, 'destination')
          if (message) setError('destination', { message })
        },
      },
    ),
  )

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Dynamic QR Code</DialogTitle>
          <DialogDescription>
            Change where “{code.name}” sends people. The QR code image stays the same, so printed codes keep working.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={submit}>
          <TextField
            id={`destination-${code.id}`}
            label="Destination URL"
            error={errors.destination?.message}
            type="url"
            placeholder="https://example.com"
            {...register('destination')}
          >
            <p className="text-xs text-slate-500">
              Short link: <span className="font-mono">{code.shortUrl}</span>
            </p>
          </TextField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={edit.isPending}>
              {edit.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Save Changes
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

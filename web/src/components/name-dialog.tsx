import { useState, type FormEvent, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { fieldMessage, serverMessage } from '@/lib/api-client'

interface NameDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  label: string
  /** The name shown when the dialog opens (empty to create). */
  initial?: string
  submitLabel: string
  /** Saves the trimmed name; a rejection's message is shown on the field. */
  onSubmit: (name: string) => Promise<unknown>
  /** More fields under the name, such as a tag's colour. */
  children?: ReactNode
}

/**
 * Asks for one name (a workspace, a tag, a folder): required, at most 100
 * characters, and the server's refusal (a duplicate is a 409) shown on the
 * field, the dialog staying open to correct it.
 */
export function NameDialog({ open, onOpenChange, ...props }: NameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open && <NameForm {...props} onClose={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  )
}

function NameForm({ title, description, label, initial = '', submitLabel, onSubmit, children, onClose }: Omit<NameDialogProps, 'open' | 'onOpenChange'> & { onClose: () => void }) {
  const [name, setName] = useState(initial)
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    // React passes a portal's events up its component tree: without this a
    // dialog opened from inside a form (Save as brand kit, in the
    // generator) also submitted that form, which saved a QR code.
    event.stopPropagation()
    const trimmed = name.trim()
    if (!trimmed) {
      setError(`${label} is required`)
      return
    }
    setSaving(true)
    try {
      await onSubmit(trimmed)
      onClose()
    } catch (failure) {
      setError(fieldMessage(failure, 'name') ?? serverMessage(failure) ?? 'Something went wrong. Please try again.')
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        {description && <DialogDescription>{description}</DialogDescription>}
      </DialogHeader>
      <TextField id="name-dialog-name" label={label} value={name} onChange={(e) => setName(e.target.value)} error={error} maxLength={100} autoFocus />
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}

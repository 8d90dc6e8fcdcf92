import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import type { Client, ClientInput } from '../api/clients'

const DEFAULT_PRIMARY = '#3B82F6'
const DEFAULT_SECONDARY = '#1E40AF'

type Fields = Record<'name' | 'customDomain' | 'subdomain' | 'logoUrl' | 'primaryColor' | 'secondaryColor' | 'customFavicon' | 'customCSS', string>

function initialFields(client?: Client): Fields {
  return {
    name: client?.name ?? '',
    customDomain: client?.customDomain ?? '',
    subdomain: client?.subdomain ?? '',
    logoUrl: client?.logoUrl ?? '',
    primaryColor: client?.primaryColor ?? DEFAULT_PRIMARY,
    secondaryColor: client?.secondaryColor ?? DEFAULT_SECONDARY,
    customFavicon: client?.customFavicon ?? '',
    customCSS: client?.customCSS ?? '',
  }
}

/** The fields as sent: trimmed, and empty optional ones left out (spec 02 §5). */
export function toClientInput(fields: Fields, removeBranding: boolean, isActive: boolean): ClientInput {
  const input: ClientInput = { name: fields.name.trim(), removeSquarelyBranding: removeBranding, isActive }
  for (const key of ['customDomain', 'subdomain', 'logoUrl', 'primaryColor', 'secondaryColor', 'customFavicon', 'customCSS'] as const) {
    const value = fields[key].trim()
    if (value) input[key] = value
  }
  return input
}

interface ClientFormDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The client to edit; absent for a new one. */
  client?: Client
  pending: boolean
  /** Field problems the server reported. */
  serverErrors?: Record<string, string>
  onSubmit: (input: ClientInput) => void
}

export function ClientFormDialog({ open, onOpenChange, client, pending, serverErrors, onSubmit }: ClientFormDialogProps) {
  const [fields, setFields] = useState(() => initialFields(client))
  const [removeBranding, setRemoveBranding] = useState(client?.removeSquarelyBranding ?? false)
  const [isActive, setIsActive] = useState(client?.isActive ?? true)
  const [nameError, setNameError] = useState<string>()
  const set = (key: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value }))
  const idPrefix = client ? `edit-client-${client.id}` : 'new-client'

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!fields.name.trim()) {
      setNameError('Name is required')
      return
    }
    setNameError(undefined)
    onSubmit(toClientInput(fields, removeBranding, isActive))
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{client ? 'Edit Client' : 'Create New Client'}</DialogTitle>
          <DialogDescription>Brand the site for a client on its own domain or subdomain.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <TextField id={`${idPrefix}-name`} label="Name" value={fields.name} onChange={set('name')} error={nameError ?? serverErrors?.name} />
          <TextField id={`${idPrefix}-domain`} label="Custom domain" placeholder="qr.example.com" value={fields.customDomain} onChange={set('customDomain')} error={serverErrors?.customDomain} />
          <TextField id={`${idPrefix}-subdomain`} label="Subdomain" placeholder="acme" value={fields.subdomain} onChange={set('subdomain')} error={serverErrors?.subdomain} />
          <TextField id={`${idPrefix}-logo`} label="Logo URL" placeholder="https://…" value={fields.logoUrl} onChange={set('logoUrl')} error={serverErrors?.logoUrl} />
          <div className="grid grid-cols-2 gap-4">
            <TextField id={`${idPrefix}-primary`} label="Primary colour" value={fields.primaryColor} onChange={set('primaryColor')} error={serverErrors?.primaryColor} />
            <TextField id={`${idPrefix}-secondary`} label="Secondary colour" value={fields.secondaryColor} onChange={set('secondaryColor')} error={serverErrors?.secondaryColor} />
          </div>
          <TextField id={`${idPrefix}-favicon`} label="Favicon URL" placeholder="https://…" value={fields.customFavicon} onChange={set('customFavicon')} error={serverErrors?.customFavicon} />
          <div className="grid gap-2">
            <Label htmlFor={`${idPrefix}-css`}>Custom CSS</Label>
            <textarea
              id={`${idPrefix}-css`}
              rows={4}
              value={fields.customCSS}
              onChange={set('customCSS')}
              className="rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
            />
            {serverErrors?.customCSS && <p className="text-sm text-red-600">{serverErrors.customCSS}</p>}
          </div>
          <div className="flex items-center justify-between">
            <Label htmlFor={`${idPrefix}-branding`}>Remove Squarely branding</Label>
            <Switch id={`${idPrefix}-branding`} checked={removeBranding} onCheckedChange={setRemoveBranding} />
          </div>
          {client && (
            <div className="flex items-center justify-between">
              <Label htmlFor={`${idPrefix}-active`}>Active</Label>
              <Switch id={`${idPrefix}-active`} checked={isActive} onCheckedChange={setIsActive} />
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {client ? (pending ? 'Saving...' : 'Save Changes') : pending ? 'Creating...' : 'Create Client'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { useCan } from '@/lib/workspace'
import { useVerifiedDomains } from '@/lib/verified-domains'
import { useEditDestination, useSetCodeDomain, useSetShortCode } from '../api/codes'
import { destinationSchema, type DestinationInput } from '../api/schemas'
import type { DynamicCode } from '../api/types'
import { invalidProps, type RoutingTab } from '../lib/routing-errors'
import { withUtm } from '../lib/utm'
import { editPanel, stickyFooter } from './edit-dialog-layout'
import { RoutingTabs } from './routing-editor'
import { UtmBuilder } from './utm-builder'

// The short-code field (and its availability check) loads with the tab that shows it.
const ShortCodeField = lazy(() => import('@/components/short-code-field'))

/**
 * Edit Dynamic QR Code: the destination (with a UTM builder and the
 * workspace's saved UTM presets), the smart routing tabs, and the domain
 * the code prints; the printed image stays valid.
 */
export function EditDestinationDialog({ code, open, onOpenChange }: { code: DynamicCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const edit = useEditDestination()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<DestinationInput>({ resolver: zodResolver(destinationSchema), values: { destination: code.destination } })

  const [tab, setTab] = useState('destination')
  // The routing tabs a refused save has messages on: each is flagged, and the dialog turns to the first.
  const [refusedTabs, setRefusedTabs] = useState<RoutingTab[]>([])
  const refused = (tabs: RoutingTab[]) => {
    setRefusedTabs(tabs)
    if (tabs[0]) setTab(tabs[0])
  }
  const changeOpen = (next: boolean) => {
    if (!next) {
      reset()
      setTab('destination')
      setRefusedTabs([])
    }
    onOpenChange(next)
  }
  const trigger = (value: RoutingTab, label: string) => (
    <TabsTrigger value={value} className="gap-1.5">
      {label}
      {refusedTabs.includes(value) && (
        <>
          <span className="size-1.5 rounded-full bg-red-600" aria-hidden="true" />
          <span className="sr-only">, has errors</span>
        </>
      )}
    </TabsTrigger>
  )
  const submit = handleSubmit(({ destination }) =>
    edit.mutate(
      { code, destination },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => {
          const message = fieldMessage(error, 'destination')
          if (message) setError('destination', { message }, { shouldFocus: true })
        },
      },
    ),
  )

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      {/* On a phone the header and tabs stay put and a tab's panel scrolls under them, its footer (Save) pinned at the bottom. */}
      <DialogContent className="flex max-h-[calc(100dvh-2rem)] max-w-2xl flex-col p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>Edit Dynamic QR Code</DialogTitle>
          <DialogDescription>
            Change where “{code.name}” sends people. The QR code image stays the same, so printed codes keep working.
          </DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={setTab} className="flex min-h-0 flex-1 flex-col">
          <TabsList className="flex h-auto flex-wrap justify-start">
            <TabsTrigger value="destination">Destination</TabsTrigger>
            {trigger('rules', 'Rules')}
            {trigger('split', 'Split')}
            {trigger('schedule', 'Schedule & limit')}
            <TabsTrigger value="domain">Domain &amp; short code</TabsTrigger>
          </TabsList>
          <TabsContent value="destination" className={editPanel}>
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
              <UtmBuilder
                idSuffix={code.id}
                onAdd={(utm) => setValue('destination', withUtm(getValues('destination'), utm), { shouldDirty: true })}
              />
              <DialogFooter className={stickyFooter}>
                <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={edit.isPending}>
                  {edit.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
                  Save Changes
                </Button>
              </DialogFooter>
            </form>
          </TabsContent>
          <RoutingTabs code={code} onSaved={() => changeOpen(false)} refused={refused} />
          <TabsContent value="domain" className={editPanel}>
            <DomainTab code={code} onSaved={() => onOpenChange(false)} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  )
}

/**
 * The domain a dynamic code prints: the base URL or one of the workspace's
 * verified domains (docs/API.md "Custom domains").
 */
function DomainTab({ code, onSaved }: { code: DynamicCode; onSaved: () => void }) {
  const domains = useVerifiedDomains()
  const move = useSetCodeDomain()
  const mayEdit = useCan('editCodes')
  const [choice, setChoice] = useState(code.domainId ? String(code.domainId) : '')
  const [error, setError] = useState<string>()
  const id = `code-domain-${code.id}`

  function save() {
    setError(undefined)
    move.mutate(
      { code, domainId: choice ? Number(choice) : null },
      { onSuccess: onSaved, onError: (e) => setError(fieldMessage(e, 'domainId') ?? serverMessage(e) ?? 'Failed to change the domain') },
    )
  }

  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor={id}>Printed domain</Label>
        <NativeSelect id={id} value={choice} onChange={(e) => setChoice(e.target.value)} disabled={!mayEdit} {...invalidProps(id, error)}>
          <option value="">Squarely (default)</option>
          {domains.data?.map((d) => (
            <option key={d.id} value={String(d.id)}>
              {d.domain}
            </option>
          ))}
          {code.domainId && code.domain && !domains.data?.some((d) => d.id === code.domainId) && (
            <option value={String(code.domainId)}>{code.domain} (not pointing here now)</option>
          )}
        </NativeSelect>
        <FieldError id={`${id}-error`}>{error}</FieldError>
      </div>
      <p className="text-sm text-slate-600">
        Short link now: <span className="font-mono">{code.shortUrl}</span>. A new domain changes the link, and so the QR code image: download it
        again for new prints. Codes already printed with the old link keep working while its domain stays in this workspace. Add and verify
        domains under Workspace, Domains.
      </p>
      {domains.data?.length === 0 && (
        <p className="text-sm text-slate-600">This workspace has no domain that is verified and points here yet: see Workspace, Domains.</p>
      )}
      <ShortCodeSection code={code} />
      <DialogFooter className={stickyFooter}>
        <Button type="button" onClick={save} disabled={move.isPending || !mayEdit || choice === (code.domainId ? String(code.domainId) : '')}>
          {move.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Save Domain
        </Button>
      </DialogFooter>
    </div>
  )
}

/**
 * A chosen short code in place of the current one, while the code has no
 * scans: after the first scan printed copies may use it, and the server
 * refuses the change (409).
 */
function ShortCodeSection({ code }: { code: DynamicCode }) {
  const change = useSetShortCode()
  const mayEdit = useCan('editCodes')
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const id = `code-short-${code.id}`
  if (code.scanCount > 0) {
    return (
      <p className="border-t border-slate-200 pt-4 text-sm text-slate-600">
        The short code <span className="font-mono">{code.shortCode}</span> stays as it is: the code has been scanned, so printed copies may use it.
      </p>
    )
  }

  function save() {
    setError(undefined)
    change.mutate(
      { code, shortCode: value.trim() },
      {
        onSuccess: () => setValue(''),
        onError: (e) => setError(fieldMessage(e, 'shortCode') ?? serverMessage(e) ?? 'Failed to change the short code'),
      },
    )
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-3 border-t border-slate-200 pt-4">
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        Short code
      </h3>
      <Suspense fallback={null}>
        <ShortCodeField
          id={id}
          value={value}
          onChange={(next) => {
            setValue(next)
            setError(undefined)
          }}
          serverError={error}
          domainId={code.domainId}
          label="New short code"
          hint={`Now ${code.shortCode}. It can change until the code's first scan; the QR code image changes with it.`}
        />
      </Suspense>
      <div className="flex justify-end">
        <Button type="button" variant="outline" onClick={save} disabled={change.isPending || !mayEdit || value.trim() === '' || value.trim() === code.shortCode}>
          {change.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Save Short Code
        </Button>
      </div>
    </section>
  )
}

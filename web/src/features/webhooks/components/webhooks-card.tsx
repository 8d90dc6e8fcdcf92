import { Copy, Pencil, Trash2, Webhook as WebhookIcon } from 'lucide-react'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import { focusFirstInvalid } from '@/lib/form-errors'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { eventTypes, useCreateWebhook, useDeleteWebhook, useRotateSecret, useUpdateWebhook, useWebhooks, type Webhook } from '../api/webhooks'
import { DeliveriesList } from './deliveries-list'

function failed(what: string) {
  return (error: unknown) => toast({ title: 'Error', description: serverMessage(error) ?? `Failed to ${what}`, variant: 'destructive' })
}

/** The workspace's endpoints: add one (its secret is shown once), enable or disable, test, rotate, delete, and see deliveries. */
export function WebhooksCard() {
  const hooks = useWebhooks()
  const [secret, setSecret] = useState<{ url: string; secret: string }>()
  // A deleted endpoint takes its focused Delete button with it: focus goes to the first endpoint left, or to "No endpoints yet".
  const list = useRef<HTMLDivElement>(null)
  useFocusAfterRemoval(hooks.data?.length ?? 0, () => list.current?.querySelector<HTMLElement>('[tabindex="-1"]'))
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <WebhookIcon className="size-5" aria-hidden="true" /> Add an endpoint
          </CardTitle>
          <CardDescription>
            Squarely POSTs each event you choose to your URL as JSON, signed with the endpoint's secret (Standard Webhooks: the headers
            webhook-id, webhook-timestamp and webhook-signature). Failed deliveries are retried for about 17 hours.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <EndpointForm onSaved={(hook) => hook.secret && setSecret({ url: hook.url, secret: hook.secret })} />
        </CardContent>
      </Card>

      {secret && <SecretNotice {...secret} />}

      {hooks.isPending && <Spinner label="Loading webhooks..." />}
      {hooks.isError && <Alert variant="destructive">{serverMessage(hooks.error) ?? 'Failed to load the webhooks.'}</Alert>}
      <div ref={list} className="grid gap-6 empty:hidden">
        {hooks.data?.length === 0 && (
          <p tabIndex={-1} className="text-sm text-slate-600 focus:outline-none">
            No endpoints yet.
          </p>
        )}
        {hooks.data?.map((hook) => (
          <EndpointCard key={hook.id} hook={hook} onSecret={(s) => setSecret({ url: hook.url, secret: s })} />
        ))}
      </div>
    </div>
  )
}

function SecretNotice({ url, secret }: { url: string; secret: string }) {
  async function copy() {
    await navigator.clipboard.writeText(secret)
    toast({ title: 'Copied!', description: 'Signing secret copied to clipboard' })
  }
  return (
    <Alert className="min-w-0">
      <div className="grid min-w-0 flex-1 gap-2">
        <p className="font-medium">
          Copy the signing secret of <span className="break-all">{url}</span> now: it will not be shown again.
        </p>
        <div className="flex min-w-0 items-center gap-2">
          <code data-testid="webhook-secret" className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 font-mono text-xs">
            {secret}
          </code>
          <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
            <Copy aria-hidden="true" /> Copy
          </Button>
        </div>
      </div>
    </Alert>
  )
}

/** An endpoint's URL, description and events: a new endpoint's (POST), or an endpoint's changes (PATCH). */
function EndpointForm({ hook, onSaved }: { hook?: Webhook; onSaved: (saved: Webhook) => void }) {
  const id = useId()
  const create = useCreateWebhook()
  const update = useUpdateWebhook()
  const saving = hook ? update : create
  const [url, setUrl] = useState(hook?.url ?? '')
  const [description, setDescription] = useState(hook?.description ?? '')
  const [events, setEvents] = useState<string[]>(hook?.events ?? ['code.created', 'code.updated', 'code.deleted'])

  function submit(event: FormEvent) {
    event.preventDefault()
    const input = { url: url.trim(), events, description: description.trim() }
    if (hook) {
      update.mutate({ id: hook.id, ...input }, { onSuccess: onSaved })
      return
    }
    create.mutate(input, {
      onSuccess: (saved) => {
        onSaved(saved)
        setUrl('')
        setDescription('')
      },
    })
  }

  const error = saving.error
  const fields = serverFieldErrors(error)
  const form = useRef<HTMLFormElement>(null)
  // A refusal drawn: to its first field (the URL, or the events).
  useEffect(() => {
    if (form.current && serverFieldErrors(error)) focusFirstInvalid(form.current)
  }, [error])
  const eventsError = `${id}-events-error`
  return (
    <form ref={form} className="grid gap-4" onSubmit={submit} noValidate>
      <TextField
        id={`${id}-url`}
        label="Endpoint URL"
        placeholder="https://example.com/squarely-events"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={fields?.url}
        maxLength={2048}
      />
      <TextField
        id={`${id}-description`}
        label="Description (optional)"
        placeholder="e.g. CRM sync"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={fields?.description}
        maxLength={200}
      />
      <fieldset
        className="grid gap-2"
        tabIndex={-1}
        aria-invalid={fields?.events ? true : undefined}
        aria-describedby={fields?.events ? eventsError : undefined}
      >
        <legend className="mb-1 text-sm font-medium">Events</legend>
        <div className="grid gap-1.5 sm:grid-cols-2">
          {eventTypes.map(({ type, label }) => (
            <label key={type} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-primary"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />
              <span className="min-w-0 break-words">
                <code className="font-mono text-xs">{type}</code> <span className="text-slate-600">{label}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id={eventsError}>{fields?.events}</FieldError>
      </fieldset>
      {error && !fields && (
        <Alert variant="destructive">{serverMessage(error) ?? (hook ? 'Failed to save the endpoint.' : 'Failed to add the endpoint.')}</Alert>
      )}
      <Button type="submit" className="justify-self-start" disabled={saving.isPending}>
        {hook ? (saving.isPending ? 'Saving...' : 'Save endpoint') : saving.isPending ? 'Adding...' : 'Add endpoint'}
      </Button>
    </form>
  )
}

/** Edit endpoint: its URL, description and events (PATCH /api/webhooks/{id}). */
function EditDialog({ hook, onOpenChange }: { hook: Webhook; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Edit endpoint</DialogTitle>
          <DialogDescription>Its secret stays; the next deliveries go to the new URL.</DialogDescription>
        </DialogHeader>
        <EndpointForm
          hook={hook}
          onSaved={(saved) => {
            toast({ title: 'Endpoint saved', description: saved.url })
            onOpenChange(false)
          }}
        />
      </DialogContent>
    </Dialog>
  )
}

function EndpointCard({ hook, onSecret }: { hook: Webhook; onSecret: (secret: string) => void }) {
  const update = useUpdateWebhook()
  const remove = useDeleteWebhook()
  const rotate = useRotateSecret()
  const [editing, setEditing] = useState(false)

  function toggle() {
    update.mutate(
      { id: hook.id, enabled: !hook.enabled },
      {
        onSuccess: () => toast({ title: hook.enabled ? 'Endpoint disabled' : 'Endpoint enabled', description: hook.url }),
        onError: failed('change the endpoint'),
      },
    )
  }
  function rotateSecret() {
    if (!window.confirm(`Give ${hook.url} a new signing secret? Deliveries are signed with it at once, retries included.`)) return
    rotate.mutate(hook.id, { onSuccess: (h) => h.secret && onSecret(h.secret), onError: failed('rotate the secret') })
  }
  function del() {
    if (!window.confirm(`Delete the endpoint ${hook.url} and its deliveries?`)) return
    remove.mutate(hook.id, { onSuccess: () => toast({ title: 'Endpoint deleted', description: hook.url }), onError: failed('delete the endpoint') })
  }

  return (
    <Card role="region" aria-label={`Endpoint ${hook.url}`} tabIndex={-1} className="focus:outline-none">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="break-all font-mono text-base">{hook.url}</CardTitle>
          {hook.description && <CardDescription>{hook.description}</CardDescription>}
          <div className="flex flex-wrap gap-1">
            {hook.enabled ? <Badge tone="emerald">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
            {hook.consecutiveFailures > 0 && <Badge tone="amber">{hook.consecutiveFailures} failed in a row</Badge>}
            {hook.events.map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
          </div>
          {hook.disabledReason && <p className="text-sm text-red-700">{hook.disabledReason}. Check the endpoint, then enable it again.</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
          <Button size="sm" variant="outline" onClick={toggle} disabled={update.isPending}>
            {hook.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="sm" variant="outline" onClick={rotateSecret} disabled={rotate.isPending}>
            Rotate secret
          </Button>
          <Button size="sm" variant="ghost" onClick={del} disabled={remove.isPending} aria-label={`Delete ${hook.url}`}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <DeliveriesList hook={hook} />
      </CardContent>
      {editing && <EditDialog hook={hook} onOpenChange={setEditing} />}
    </Card>
  )
}



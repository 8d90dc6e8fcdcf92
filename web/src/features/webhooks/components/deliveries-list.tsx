import { FileText, RotateCw, Send } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { useDeliveries, useSendAgain, type Delivery, type Webhook } from '../api/webhooks'
import { DeliveryDialog } from './delivery-dialog'
import { formatDateTime } from '@/lib/dates'

const statusTone = { pending: 'amber', succeeded: 'emerald', failed: 'red' } as const

/** An endpoint's deliveries, newest first, with Send test and Retry. */
export function DeliveriesList({ hook }: { hook: Webhook }) {
  const deliveries = useDeliveries(hook.id)
  const send = useSendAgain(hook.id)
  const items = deliveries.data?.pages.flatMap((p) => p.items)
  const [open, setOpen] = useState<Delivery | null>(null)

  function sendAgain(delivery?: Delivery) {
    send.mutate(delivery?.id, {
      onSuccess: () =>
        toast({
          title: delivery ? (delivery.status === 'succeeded' ? 'Delivery queued again' : 'Retrying now') : 'Test event queued',
          description: hook.enabled ? 'It shows below once sent.' : 'It waits until the endpoint is enabled.',
        }),
      onError: (error) => toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to queue it', variant: 'destructive' }),
    })
  }

  return (
    <section className="grid gap-3" aria-label="Deliveries">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Deliveries</h3>
        <Button size="sm" variant="outline" onClick={() => sendAgain()} disabled={send.isPending}>
          <Send aria-hidden="true" /> Send test
        </Button>
      </div>
      {deliveries.isPending && <Spinner label="Loading deliveries..." />}
      {deliveries.isError && <Alert variant="destructive">{serverMessage(deliveries.error) ?? 'Failed to load the deliveries.'}</Alert>}
      {items?.length === 0 && <p className="text-sm text-slate-600">Nothing sent yet.</p>}
      {items && items.length > 0 && (
        <ol className="grid divide-y divide-slate-100 rounded-lg border border-slate-200">
          {items.map((d) => (
            <li key={d.id} className="grid gap-1 px-3 py-2 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4" data-testid="delivery">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <Badge tone={statusTone[d.status]}>{d.status}</Badge>
                  <code className="font-mono text-xs">{d.type}</code>
                  <span className="text-xs text-slate-500">{formatDateTime(d.createdAt)}</span>
                </p>
                <p className="break-words text-xs text-slate-600">
                  {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                  {d.lastStatusCode !== null && ` · last answer HTTP ${d.lastStatusCode}`}
                  {d.lastError && ` · ${d.lastError}`}
                  {d.status === 'pending' && d.attempts > 0 && ` · next try ${formatDateTime(d.nextAttemptAt)}`}
                  <span className="font-mono"> · {d.eventId}</span>
                </p>
              </div>
              <div className="flex flex-wrap gap-1">
                <Button size="sm" variant="ghost" onClick={() => setOpen(d)} aria-label={`Details of ${d.eventId}`}>
                  <FileText aria-hidden="true" /> Details
                </Button>
                <Button size="sm" variant="ghost" onClick={() => sendAgain(d)} disabled={send.isPending}>
                  <RotateCw aria-hidden="true" /> {d.status === 'succeeded' ? 'Send again' : 'Retry now'}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {deliveries.hasNextPage && (
        <Button variant="outline" size="sm" className="justify-self-center" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
          {deliveries.isFetchingNextPage ? 'Loading...' : 'Show older'}
        </Button>
      )}
      {open && <DeliveryDialog hookId={hook.id} delivery={open} onOpenChange={(o) => !o && setOpen(null)} />}
    </section>
  )
}

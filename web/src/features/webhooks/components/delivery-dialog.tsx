import { Alert } from '@/components/ui/alert'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { useDelivery, type Delivery } from '../api/webhooks'

/** The payload as sent, laid out for reading when it is JSON (it always is; a stored body is shown as it is otherwise). */
function readable(payload: string) {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2)
  } catch {
    return payload
  }
}

const blockClass = 'max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-800'

/** A delivery's event payload as sent and its last answer: status and the start of the body. */
export function DeliveryDialog({ hookId, delivery, onOpenChange }: { hookId: number; delivery: Delivery; onOpenChange: (open: boolean) => void }) {
  const detail = useDelivery(hookId, delivery.id)
  const d = detail.data
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="break-all">Delivery {delivery.eventId}</DialogTitle>
          <DialogDescription>
            {delivery.type}: what was sent and what the endpoint answered last.
          </DialogDescription>
        </DialogHeader>
        {detail.isPending && <Spinner label="Loading the delivery..." />}
        {detail.isError && <Alert variant="destructive">{serverMessage(detail.error) ?? 'Failed to load the delivery.'}</Alert>}
        {d && (
          <>
            <section className="grid min-w-0 gap-1.5" aria-labelledby="delivery-payload">
              <h3 id="delivery-payload" className="text-sm font-semibold text-slate-900">
                Payload
              </h3>
              <pre className={blockClass} tabIndex={0} data-testid="delivery-payload">
                {readable(d.payload)}
              </pre>
            </section>
            <section className="grid min-w-0 gap-1.5" aria-labelledby="delivery-response">
              <h3 id="delivery-response" className="text-sm font-semibold text-slate-900">
                Last response
              </h3>
              {d.lastStatusCode === null ? (
                <p className="text-sm text-slate-600">{d.lastError || 'No answer yet.'}</p>
              ) : (
                <>
                  <p className="text-sm text-slate-700">HTTP {d.lastStatusCode}</p>
                  {d.lastResponse ? (
                    <pre className={blockClass} tabIndex={0} data-testid="delivery-response">
                      {d.lastResponse}
                    </pre>
                  ) : (
                    <p className="text-sm text-slate-600">An empty body.</p>
                  )}
                  <p className="text-xs text-slate-500">The first 2 KB of the body are kept.</p>
                </>
              )}
            </section>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}

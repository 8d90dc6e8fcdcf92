import { Loader2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { serverFieldErrors } from '@/lib/api-client'
import { useSetRouting } from '../api/codes'
import type { DynamicCode, Routing } from '../api/types'
import { cleaned, emptyRouting } from '../lib/routing'
import { RoutingRulesTab } from './routing-rules-tab'
import { RoutingScheduleTab } from './routing-schedule-tab'
import { RoutingSplitTab } from './routing-split-tab'

// The Rules, Split and Schedule & limit tabs of the Edit Dynamic QR Code
// dialog (issue 23): one routing object, saved with PUT …/routing.

export function RoutingTabs({ code, onSaved }: { code: DynamicCode; onSaved: () => void }) {
  const [draft, setDraft] = useState<Routing>(() => ({ ...emptyRouting, ...code.routing }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSetRouting()

  const submit = (routing: Routing | null) => {
    setErrors({})
    save.mutate(
      { code, routing },
      { onSuccess: onSaved, onError: (error) => setErrors(serverFieldErrors(error) ?? { routing: 'Saving failed. Please try again.' }) },
    )
  }

  const footer: ReactNode = (
    <div className="mt-4 grid gap-3">
      {Object.keys(errors).length > 0 && (
        <ul role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {Object.entries(errors).map(([field, message]) => (
            <li key={field}>
              <span className="font-mono">{field}</span>: {message}
            </li>
          ))}
        </ul>
      )}
      <div className="flex justify-end gap-2">
        {code.routing && (
          <Button type="button" variant="outline" onClick={() => submit(null)} disabled={save.isPending}>
            Remove routing
          </Button>
        )}
        <Button type="button" onClick={() => submit(cleaned(draft))} disabled={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Save Routing
        </Button>
      </div>
    </div>
  )

  return (
    <>
      <RoutingRulesTab draft={draft} setDraft={setDraft} footer={footer} />
      <RoutingSplitTab draft={draft} setDraft={setDraft} footer={footer} />
      <RoutingScheduleTab draft={draft} setDraft={setDraft} limitScans={code.limitScans} footer={footer} />
    </>
  )
}

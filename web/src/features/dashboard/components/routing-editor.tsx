import { Loader2 } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { serverFieldErrors } from '@/lib/api-client'
import { focusFirstInvalid } from '@/lib/form-errors'
import { toastFailure } from '@/lib/use-toast'
import { useSetRouting } from '../api/codes'
import type { DynamicCode, Routing } from '../api/types'
import { cleaned, emptyRouting } from '../lib/routing'
import { tabsWithErrors, unplacedErrors, type RoutingTab } from '../lib/routing-errors'
import { stickyFooter } from './edit-dialog-layout'
import { RoutingRulesTab } from './routing-rules-tab'
import { RoutingScheduleTab } from './routing-schedule-tab'
import { RoutingSplitTab } from './routing-split-tab'

// The Rules, Split and Schedule & limit tabs of the Edit Dynamic QR Code
// dialog (issue 23): one routing object, saved with PUT …/routing. A
// refusal shows each of the server's messages beside its field (issue 39):
// the dialog flags every tab with one, turns to the first and focuses its
// first field.

/** refused is told the tabs with a refusal, in order (none when a save starts). */
export function RoutingTabs({ code, onSaved, refused }: { code: DynamicCode; onSaved: () => void; refused: (tabs: RoutingTab[]) => void }) {
  const [draft, setDraft] = useState<Routing>(() => ({ ...emptyRouting, ...code.routing }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSetRouting()

  // After a refusal has drawn its messages: focus the first invalid field of the tab shown.
  useEffect(() => {
    if (!Object.keys(errors).length) return
    const frame = requestAnimationFrame(() => {
      const panel = document.querySelector('[role="tabpanel"][data-state="active"]')
      if (panel) focusFirstInvalid(panel)
    })
    return () => cancelAnimationFrame(frame)
  }, [errors])

  const failed = toastFailure('Could not save routing')
  const submit = (routing: Routing | null) => {
    setErrors({})
    refused([])
    save.mutate(
      { code, routing },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const byField = serverFieldErrors(error)
          if (!byField) return failed(error)
          setErrors(byField)
          refused(tabsWithErrors(byField))
        },
      },
    )
  }

  const unplaced = unplacedErrors(errors)
  // A fragment: the footer's sticky part must be a child of the scrolling panel to stay in view.
  const footer: ReactNode = (
    <>
      {unplaced.length > 0 && (
        <ul role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {unplaced.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <div className={`flex flex-wrap justify-end gap-2 ${stickyFooter}`}>
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
    </>
  )

  return (
    <>
      <RoutingRulesTab draft={draft} setDraft={setDraft} errors={errors} footer={footer} />
      <RoutingSplitTab draft={draft} setDraft={setDraft} errors={errors} footer={footer} />
      <RoutingScheduleTab draft={draft} setDraft={setDraft} errors={errors} limitScans={code.limitScans} footer={footer} />
    </>
  )
}

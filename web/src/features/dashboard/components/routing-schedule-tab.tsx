import type { Dispatch, ReactNode, SetStateAction } from 'react'
import { Input } from '@/components/ui/input'
import { TabsContent } from '@/components/ui/tabs'
import type { Routing } from '../api/types'
import { fromLocalInput, toLocalInput } from '../lib/routing'
import { Field } from './routing-fields'

/** The Schedule & limit tab: when the code works, for how many scans, and where scans go after. */
export function RoutingScheduleTab({
  draft,
  setDraft,
  limitScans,
  footer,
}: {
  draft: Routing
  setDraft: Dispatch<SetStateAction<Routing>>
  /** Scans redirected so far, counted against the limit. */
  limitScans: number
  footer: ReactNode
}) {
  return (
    <TabsContent value="schedule" className="grid gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="routing-starts" label="Starts at">
          <Input id="routing-starts" type="datetime-local" value={toLocalInput(draft.startsAt)} onChange={(e) => setDraft((d) => ({ ...d, startsAt: fromLocalInput(e.target.value) }))} />
        </Field>
        <Field id="routing-expires" label="Ends at">
          <Input id="routing-expires" type="datetime-local" value={toLocalInput(draft.expiresAt)} onChange={(e) => setDraft((d) => ({ ...d, expiresAt: fromLocalInput(e.target.value) }))} />
        </Field>
      </div>
      <Field id="routing-limit" label="Scan limit">
        <Input
          id="routing-limit"
          type="number"
          min={1}
          placeholder="No limit"
          value={draft.scanLimit ?? ''}
          onChange={(e) => setDraft((d) => ({ ...d, scanLimit: e.target.value === '' ? null : Number(e.target.value) }))}
        />
      </Field>
      {draft.scanLimit != null && <p className="text-sm text-slate-600">{limitScans} redirected so far.</p>}
      <Field id="routing-after-end" label="After the end, send scans to">
        <Input
          id="routing-after-end"
          type="url"
          placeholder="Leave empty to show “This QR code is no longer active”"
          value={draft.afterEnd ?? ''}
          onChange={(e) => setDraft((d) => ({ ...d, afterEnd: e.target.value }))}
        />
      </Field>
      {footer}
    </TabsContent>
  )
}

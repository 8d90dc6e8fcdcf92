import { Input } from '@/components/ui/input'
import { TabsContent } from '@/components/ui/tabs'
import { fromLocalInput, toLocalInput } from '../lib/routing'
import { invalidProps } from '../lib/routing-errors'
import { editPanel } from './edit-dialog-layout'
import { Field, type RoutingTabProps } from './routing-fields'

/** The Schedule & limit tab: when the code works, for how many scans, and where scans go after. */
export function RoutingScheduleTab({
  draft,
  setDraft,
  limitScans,
  errors,
  footer,
}: RoutingTabProps & {
  /** Scans redirected so far, counted against the limit. */
  limitScans: number
}) {
  return (
    <TabsContent value="schedule" className={`grid content-start gap-3 ${editPanel}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="routing-starts" label="Starts at" error={errors.startsAt}>
          <Input id="routing-starts" {...invalidProps('routing-starts', errors.startsAt)} type="datetime-local" value={toLocalInput(draft.startsAt)} onChange={(e) => setDraft((d) => ({ ...d, startsAt: fromLocalInput(e.target.value) }))} />
        </Field>
        <Field id="routing-expires" label="Ends at" error={errors.expiresAt}>
          <Input id="routing-expires" {...invalidProps('routing-expires', errors.expiresAt)} type="datetime-local" value={toLocalInput(draft.expiresAt)} onChange={(e) => setDraft((d) => ({ ...d, expiresAt: fromLocalInput(e.target.value) }))} />
        </Field>
      </div>
      <Field id="routing-limit" label="Scan limit" error={errors.scanLimit}>
        <Input
          id="routing-limit"
          {...invalidProps('routing-limit', errors.scanLimit)}
          type="number"
          min={1}
          placeholder="No limit"
          value={draft.scanLimit ?? ''}
          onChange={(e) => setDraft((d) => ({ ...d, scanLimit: e.target.value === '' ? null : Number(e.target.value) }))}
        />
      </Field>
      {draft.scanLimit != null && <p className="text-sm text-slate-600">{limitScans} redirected so far.</p>}
      <Field id="routing-after-end" label="After the end, send scans to" error={errors.afterEnd}>
        <Input
          id="routing-after-end"
          {...invalidProps('routing-after-end', errors.afterEnd)}
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

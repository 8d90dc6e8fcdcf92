import { CalendarClock, Mail, Pencil, Plus, Send, Trash2 } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { failureMessage, serverFieldErrors, serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { formatDate } from '@/lib/dates'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { useFolders, useTags } from '@/features/dashboard'
import { useDynamicCodes } from '../api/queries'
import {
  useDeleteReportSchedule,
  useReportSchedules,
  useSaveReportSchedule,
  useSendReportNow,
  type Frequency,
  type ReportFormat,
  type ReportSchedule,
  type ReportScheduleInput,
  type Weekday,
} from '../api/report-schedules'
import type { ShareScope } from '../api/share-links'

const weekdays: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const hourText = (h: number) => `${String(h).padStart(2, '0')}:00`

/** The scope select's value for a scope, and back. */
const scopeValue = (s: ReportSchedule['scope']) => (s.codeId ? `code:${s.codeId}` : s.tagId ? `tag:${s.tagId}` : s.folderId ? `folder:${s.folderId}` : 'workspace')

function parseScope(v: string): ShareScope {
  const [kind, id] = v.split(':')
  if (kind === 'code') return { codeId: Number(id) }
  if (kind === 'tag') return { tagId: Number(id) }
  if (kind === 'folder') return { folderId: Number(id) }
  return { workspace: true }
}

/** A schedule's scope in words. */
function scopeLabel(s: ReportSchedule) {
  if (s.scope.codeId) return `Code ${s.scopeName}`
  if (s.scope.tagId) return `Tag ${s.scopeName}`
  if (s.scope.folderId) return `Folder ${s.scopeName}`
  return 'All dynamic codes'
}

/** When a schedule sends, in words: "Weekly on Monday at 09:00 (Europe/Berlin)". */
export function whenLabel(s: Pick<ReportSchedule, 'frequency' | 'weekday' | 'hour' | 'timeZone'>) {
  const at = `at ${hourText(s.hour)} (${s.timeZone})`
  if (s.frequency === 'weekly') return `Weekly on ${capital(s.weekday ?? 'monday')} ${at}`
  if (s.frequency === 'monthly') return `Monthly on the 1st ${at}`
  return `Daily ${at}`
}

/**
 * The Reports tab of the analytics: scan reports mailed on a schedule, with
 * the PDF and CSV attached. Every member schedules reports for themselves;
 * editors and up for any member.
 */
export function ReportsTab() {
  const list = useReportSchedules()
  const [editing, setEditing] = useState<ReportSchedule | 'new'>()
  const heading = useFocusAfterRemoval(list.data?.schedules.length ?? 0)
  if (list.isLoading) return <Spinner label="Loading report schedules..." />
  if (list.isError || !list.data) {
    return (
      <p role="alert" className="text-sm text-red-700">
        Failed to load report schedules
      </p>
    )
  }
  const { schedules, mailEnabled, limit } = list.data
  return (
    <section className="grid gap-4" aria-labelledby="reports-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id="reports-heading" ref={heading} tabIndex={-1} className="font-semibold text-slate-900 focus:outline-none">
            Scheduled reports
          </h3>
          <p className="text-sm text-slate-600">Scans of the last day, week or month by e-mail, against the period before, with the PDF and CSV attached.</p>
        </div>
        <Button onClick={() => setEditing('new')} disabled={schedules.length >= limit}>
          <Plus aria-hidden="true" /> Add schedule
        </Button>
      </div>
      {!mailEnabled && (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          E-mail is off on this server, so scheduled reports are not sent. Set SQUARELY_SMTP_URL and SQUARELY_MAIL_FROM to turn it on.
        </p>
      )}
      {schedules.length === 0 ? (
        <p className="text-sm text-slate-600">No scheduled reports yet.</p>
      ) : (
        <ul className="grid gap-2">
          {schedules.map((s) => (
            <ScheduleRow key={s.id} schedule={s} mailEnabled={mailEnabled} onEdit={() => setEditing(s)} />
          ))}
        </ul>
      )}
      {schedules.length >= limit && <p className="text-xs text-slate-500">A workspace keeps at most {limit} schedules.</p>}
      {editing && <ScheduleDialog schedule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </section>
  )
}

function ScheduleRow({ schedule: s, mailEnabled, onEdit }: { schedule: ReportSchedule; mailEnabled: boolean; onEdit: () => void }) {
  const remove = useDeleteReportSchedule()
  const send = useSendReportNow()
  function sendNow() {
    send.mutate(s.id, {
      onSuccess: (r) => toast({ title: 'Test report sent', description: r.message }),
      onError: (error) => toast({ title: 'Not sent', description: failureMessage(error, 'The report could not be sent.'), variant: 'destructive' }),
    })
  }
  function deleteSchedule() {
    if (!window.confirm(`Delete the report schedule "${scopeLabel(s)}, ${whenLabel(s)}"?`)) return
    remove.mutate(s.id, {
      onSuccess: () => toast({ title: 'Report schedule deleted' }),
      onError: (error) => toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to delete the schedule', variant: 'destructive' }),
    })
  }
  const name = `${scopeLabel(s)}, ${whenLabel(s)}`
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2" aria-label={name}>
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900">
          <CalendarClock className="mr-1 inline size-4" aria-hidden="true" />
          {scopeLabel(s)}: {whenLabel(s)}
        </p>
        <p className="text-xs text-slate-600">
          <Mail className="mr-1 inline size-3" aria-hidden="true" />
          {s.recipients.length ? s.recipients.join(', ') : 'Nobody (everyone unsubscribed)'} · {s.format.map((f) => f.toUpperCase()).join(' and ')}
          {mailEnabled && ` · next ${formatDate(s.nextSendAt)}`}
        </p>
      </div>
      {s.canEdit && (
        <div className="flex gap-1">
          <Button size="sm" variant="outline" onClick={sendNow} disabled={!mailEnabled || send.isPending || s.recipients.length === 0}>
            <Send aria-hidden="true" /> {send.isPending ? 'Sending…' : 'Send a test now'}
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Edit ${name}`} onClick={onEdit}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Delete ${name}`} onClick={deleteSchedule} disabled={remove.isPending}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        </div>
      )}
    </li>
  )
}

/** The add and edit dialog: every field of a schedule, the server's 400s under their fields. */
function ScheduleDialog({ schedule, onClose }: { schedule?: ReportSchedule; onClose: () => void }) {
  const id = useId()
  const user = useUser()
  const codes = useDynamicCodes()
  const tags = useTags()
  const folders = useFolders()
  const save = useSaveReportSchedule()
  const [scope, setScope] = useState(schedule ? scopeValue(schedule.scope) : 'workspace')
  const [frequency, setFrequency] = useState<Frequency>(schedule?.frequency ?? 'weekly')
  const [weekday, setWeekday] = useState<Weekday>(schedule?.weekday ?? 'monday')
  const [hour, setHour] = useState(schedule?.hour ?? 9)
  const [timeZone, setTimeZone] = useState(schedule?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone)
  const [formats, setFormats] = useState<ReportFormat[]>(schedule?.format ?? ['pdf', 'csv'])
  const [recipients, setRecipients] = useState(schedule ? schedule.recipients.join(', ') : (user.data?.username ?? ''))
  const [sendEmpty, setSendEmpty] = useState(schedule?.sendEmpty ?? false)

  function submit(e: FormEvent) {
    e.preventDefault()
    const body: ReportScheduleInput = {
      scope: parseScope(scope),
      frequency,
      hour,
      timeZone: timeZone.trim(),
      format: formats,
      recipients: recipients
        .split(/[\s,;]+/)
        .map((r) => r.trim())
        .filter(Boolean),
      sendEmpty,
    }
    if (frequency === 'weekly') body.weekday = weekday
    save.mutate(
      { id: schedule?.id, body },
      {
        onSuccess: () => {
          toast({ title: schedule ? 'Report schedule saved' : 'Report scheduled' })
          onClose()
        },
      },
    )
  }
  const toggle = (f: ReportFormat) => setFormats((now) => (now.includes(f) ? now.filter((x) => x !== f) : [...now, f].sort() as ReportFormat[]))
  // Each field shows its own 400; anything else (a 409 at the limit, a network failure) shows below the form.
  const fieldErrors = serverFieldErrors(save.error) ?? {}
  const err = (field: string): string | undefined => fieldErrors[field]
  const otherError = save.error && Object.keys(fieldErrors).length === 0 ? failureMessage(save.error, 'The schedule could not be saved. Please try again.') : undefined
  const described = (field: string) => (err(field) ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {})

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{schedule ? 'Edit report schedule' : 'Schedule a report'}</DialogTitle>
          <DialogDescription>The report covers the last whole day, week or month in the chosen time zone.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" aria-label={schedule ? 'Edit report schedule' : 'New report schedule'}>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-scope`}>What to report on</Label>
            <NativeSelect id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value)} {...described('scope')}>
              <option value="workspace">All dynamic codes</option>
              {codes.map((c) => (
                <option key={`c${c.id}`} value={`code:${c.id}`}>
                  Code: {c.name}
                </option>
              ))}
              {tags.data?.map((t) => (
                <option key={`t${t.id}`} value={`tag:${t.id}`}>
                  Tag: {t.name}
                </option>
              ))}
              {folders.data?.map((f) => (
                <option key={`f${f.id}`} value={`folder:${f.id}`}>
                  Folder: {f.name}
                </option>
              ))}
            </NativeSelect>
            <FieldError id={`${id}-scope-error`}>{err('scope')}</FieldError>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-frequency`}>How often</Label>
              <NativeSelect id={`${id}-frequency`} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)} {...described('frequency')}>
                <option value="daily">Daily</option>
                <option value="weekly">Weekly</option>
                <option value="monthly">Monthly (on the 1st)</option>
              </NativeSelect>
              <FieldError id={`${id}-frequency-error`}>{err('frequency')}</FieldError>
            </div>
            {frequency === 'weekly' && (
              <div className="grid gap-2">
                <Label htmlFor={`${id}-weekday`}>Day</Label>
                <NativeSelect id={`${id}-weekday`} value={weekday} onChange={(e) => setWeekday(e.target.value as Weekday)} {...described('weekday')}>
                  {weekdays.map((d) => (
                    <option key={d} value={d}>
                      {capital(d)}
                    </option>
                  ))}
                </NativeSelect>
                <FieldError id={`${id}-weekday-error`}>{err('weekday')}</FieldError>
              </div>
            )}
            <div className="grid gap-2">
              <Label htmlFor={`${id}-hour`}>Hour</Label>
              <NativeSelect id={`${id}-hour`} value={hour} onChange={(e) => setHour(Number(e.target.value))} {...described('hour')}>
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={h}>
                    {hourText(h)}
                  </option>
                ))}
              </NativeSelect>
              <FieldError id={`${id}-hour-error`}>{err('hour')}</FieldError>
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-timeZone`}>Time zone</Label>
            <Input id={`${id}-timeZone`} value={timeZone} onChange={(e) => setTimeZone(e.target.value)} placeholder="Europe/Berlin" {...described('timeZone')} />
            <FieldError id={`${id}-timeZone-error`}>{err('timeZone')}</FieldError>
          </div>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">Attach</legend>
            <div className="flex gap-4 text-sm">
              {(['pdf', 'csv'] as const).map((f) => (
                <label key={f} className="flex items-center gap-2">
                  <input type="checkbox" checked={formats.includes(f)} onChange={() => toggle(f)} /> {f.toUpperCase()}
                </label>
              ))}
            </div>
            <FieldError id={`${id}-format-error`}>{err('format')}</FieldError>
          </fieldset>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-recipients`}>Recipients (members' e-mail addresses, separated by commas)</Label>
            <Input id={`${id}-recipients`} value={recipients} onChange={(e) => setRecipients(e.target.value)} {...described('recipients')} />
            <FieldError id={`${id}-recipients-error`}>{err('recipients')}</FieldError>
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={sendEmpty} onChange={(e) => setSendEmpty(e.target.checked)} /> Send the report also when there were no scans
          </label>
          {otherError && (
            <p role="alert" className="text-sm text-red-700">
              {otherError}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : schedule ? 'Save schedule' : 'Schedule report'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}

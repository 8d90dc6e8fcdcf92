import { ArrowDown, ArrowUp, Loader2, Plus, Trash2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { TabsContent } from '@/components/ui/tabs'
import { serverFieldErrors } from '@/lib/api-client'
import { useSetRouting } from '../api/codes'
import type { DynamicCode, Routing, RoutingRule } from '../api/types'
import { countryCodes, countryName, languageCodes, languageName } from '../lib/countries'

// The Rules, Split and Schedule & limit tabs of the Edit Dynamic QR Code
// dialog (issue 23): one routing object, saved with PUT …/routing.

const osOptions = [
  ['ios', 'iOS'],
  ['android', 'Android'],
  ['windows', 'Windows'],
  ['macos', 'macOS'],
  ['linux', 'Linux'],
  ['other', 'Other'],
] as const
const dayOptions = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const
const timeZones: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
const countries = countryCodes.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name))

const emptyRouting: Routing = { rules: [], split: [], startsAt: null, expiresAt: null, scanLimit: null, afterEnd: null }

/** The routing as sent: empty conditions dropped; null when nothing is set. */
function cleaned(r: Routing): Routing | null {
  const rules = r.rules.map((rule) => {
    const when: RoutingRule['when'] = {}
    for (const key of ['os', 'country', 'language', 'days'] as const) {
      if (rule.when[key]?.length) when[key] = rule.when[key]
    }
    for (const key of ['from', 'to', 'timeZone'] as const) {
      if (rule.when[key]) when[key] = rule.when[key]
    }
    return { when, destination: rule.destination }
  })
  const out = { ...r, rules, afterEnd: r.afterEnd || null }
  const unset = !rules.length && !r.split.length && !r.startsAt && !r.expiresAt && r.scanLimit == null && !out.afterEnd
  return unset ? null : out
}

/** An RFC 3339 instant as a datetime-local value, in the browser's zone. */
function toLocalInput(iso: string | null) {
  if (!iso) return ''
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

function fromLocalInput(value: string) {
  return value ? new Date(value).toISOString() : null
}

function toggle(list: string[] | undefined, value: string, on: boolean) {
  const rest = (list ?? []).filter((v) => v !== value)
  return on ? [...rest, value] : rest
}

export function RoutingTabs({ code, onSaved }: { code: DynamicCode; onSaved: () => void }) {
  const [draft, setDraft] = useState<Routing>(() => ({ ...emptyRouting, ...code.routing }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSetRouting()
  const setRule = (i: number, rule: RoutingRule) => setDraft((d) => ({ ...d, rules: d.rules.map((r, j) => (j === i ? rule : r)) }))
  const moveRule = (i: number, by: number) =>
    setDraft((d) => {
      const rules = [...d.rules]
      ;[rules[i], rules[i + by]] = [rules[i + by], rules[i]]
      return { ...d, rules }
    })

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
      <TabsContent value="rules" className="grid max-h-[60vh] gap-3 overflow-y-auto">
        <p className="text-sm text-slate-600">Rules are tried in order; the first whose conditions all hold sends the scan to its URL.</p>
        {draft.rules.map((rule, i) => (
          <fieldset key={i} className="grid gap-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold">Rule {i + 1}</legend>
            <CheckboxGroup
              label={`Rule ${i + 1} devices`}
              options={osOptions}
              value={rule.when.os}
              onChange={(os) => setRule(i, { ...rule, when: { ...rule.when, os } })}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <MultiSelect
                id={`rule-${i}-country`}
                label="Countries"
                options={countries.map((c) => [c.code, c.name])}
                value={rule.when.country ?? []}
                onChange={(country) => setRule(i, { ...rule, when: { ...rule.when, country } })}
              />
              <MultiSelect
                id={`rule-${i}-language`}
                label="Languages"
                options={languageCodes.map((l) => [l, languageName(l)])}
                value={rule.when.language ?? []}
                onChange={(language) => setRule(i, { ...rule, when: { ...rule.when, language } })}
              />
            </div>
            <CheckboxGroup
              label={`Rule ${i + 1} days`}
              options={dayOptions}
              value={rule.when.days}
              onChange={(days) => setRule(i, { ...rule, when: { ...rule.when, days } })}
            />
            <div className="grid gap-3 sm:grid-cols-3">
              <Field id={`rule-${i}-from`} label="From">
                <Input id={`rule-${i}-from`} type="time" value={rule.when.from ?? ''} onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, from: e.target.value } })} />
              </Field>
              <Field id={`rule-${i}-to`} label="To">
                <Input id={`rule-${i}-to`} type="time" value={rule.when.to ?? ''} onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, to: e.target.value } })} />
              </Field>
              <Field id={`rule-${i}-tz`} label="Time zone">
                <Input
                  id={`rule-${i}-tz`}
                  list="routing-time-zones"
                  placeholder="UTC"
                  value={rule.when.timeZone ?? ''}
                  onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, timeZone: e.target.value } })}
                />
              </Field>
            </div>
            <Field id={`rule-${i}-destination`} label={`Rule ${i + 1} URL`}>
              <Input
                id={`rule-${i}-destination`}
                type="url"
                placeholder="https://example.com"
                value={rule.destination}
                onChange={(e) => setRule(i, { ...rule, destination: e.target.value })}
              />
            </Field>
            <div className="flex gap-2">
              <Button type="button" size="sm" variant="outline" disabled={i === 0} onClick={() => moveRule(i, -1)} aria-label={`Move rule ${i + 1} up`}>
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={i === draft.rules.length - 1}
                onClick={() => moveRule(i, 1)}
                aria-label={`Move rule ${i + 1} down`}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => setDraft((d) => ({ ...d, rules: d.rules.filter((_, j) => j !== i) }))}
                aria-label={`Remove rule ${i + 1}`}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          </fieldset>
        ))}
        <datalist id="routing-time-zones">
          {timeZones.map((tz) => (
            <option key={tz} value={tz} />
          ))}
        </datalist>
        <Button
          type="button"
          variant="outline"
          disabled={draft.rules.length >= 20}
          onClick={() => setDraft((d) => ({ ...d, rules: [...d.rules, { when: {}, destination: '' }] }))}
        >
          <Plus aria-hidden="true" />
          Add rule
        </Button>
        {footer}
      </TabsContent>

      <TabsContent value="split" className="grid gap-3">
        <p className="text-sm text-slate-600">
          Scans no rule matched are shared among these URLs by weight (adding up to 100); each visitor keeps getting the same one.
        </p>
        {draft.split.map((variant, i) => (
          <div key={i} className="flex items-end gap-2">
            <Field id={`split-${i}-destination`} label={`Variant ${i + 1} URL`} className="flex-1">
              <Input
                id={`split-${i}-destination`}
                type="url"
                value={variant.destination}
                onChange={(e) => setDraft((d) => ({ ...d, split: d.split.map((v, j) => (j === i ? { ...v, destination: e.target.value } : v)) }))}
              />
            </Field>
            <Field id={`split-${i}-weight`} label="Weight" className="w-24">
              <Input
                id={`split-${i}-weight`}
                type="number"
                min={1}
                max={100}
                value={variant.weight}
                onChange={(e) => setDraft((d) => ({ ...d, split: d.split.map((v, j) => (j === i ? { ...v, weight: Number(e.target.value) } : v)) }))}
              />
            </Field>
            <Button
              type="button"
              variant="outline"
              onClick={() => setDraft((d) => ({ ...d, split: d.split.filter((_, j) => j !== i) }))}
              aria-label={`Remove variant ${i + 1}`}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ))}
        <p className="text-sm text-slate-600">Total: {draft.split.reduce((sum, v) => sum + v.weight, 0)}</p>
        <Button
          type="button"
          variant="outline"
          disabled={draft.split.length >= 10}
          onClick={() => setDraft((d) => ({ ...d, split: [...d.split, { destination: '', weight: 0 }] }))}
        >
          <Plus aria-hidden="true" />
          Add variant
        </Button>
        {footer}
      </TabsContent>

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
        {draft.scanLimit != null && <p className="text-sm text-slate-600">{code.limitScans} redirected so far.</p>}
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
    </>
  )
}

function Field({ id, label, className, children }: { id: string; label: string; className?: string; children: ReactNode }) {
  return (
    <div className={`grid gap-1 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  )
}

/** Checkboxes that pick any of options (value, label) into a list. */
function CheckboxGroup({
  label,
  options,
  value,
  onChange,
}: {
  label: string
  options: readonly (readonly [string, string])[]
  value: string[] | undefined
  onChange: (value: string[]) => void
}) {
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-1 text-sm" role="group" aria-label={label}>
      {options.map(([option, text]) => (
        <label key={option} className="flex items-center gap-1">
          <input type="checkbox" checked={value?.includes(option) ?? false} onChange={(e) => onChange(toggle(value, option, e.target.checked))} />
          {text}
        </label>
      ))}
    </div>
  )
}

/** A native multiple select: keyboard and screen-reader friendly without a library. */
function MultiSelect({
  id,
  label,
  options,
  value,
  onChange,
}: {
  id: string
  label: string
  options: [string, string][]
  value: string[]
  onChange: (value: string[]) => void
}) {
  return (
    <Field id={id} label={label}>
      <select
        id={id}
        multiple
        className="h-28 rounded-lg border border-slate-300 bg-white p-1 text-sm"
        value={value}
        onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value))}
      >
        {options.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  )
}

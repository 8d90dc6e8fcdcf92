import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { TabsContent } from '@/components/ui/tabs'
import { useScanPlaces } from '../api/places'
import type { RoutingRule } from '../api/types'
import { countryCodes, countryName, languageCodes, languageName } from '../lib/countries'
import { hasConditions } from '../lib/routing'
import { invalidProps } from '../lib/routing-errors'
import { ChipPicker } from './chip-picker'
import { editPanel } from './edit-dialog-layout'
import { CheckboxGroup, Field, RouteTargetFields, type RoutingTabProps } from './routing-fields'

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
const byName = (codes: string[], name: (code: string) => string) =>
  codes.map((code) => [code, name(code)] as const).sort((a, b) => a[1].localeCompare(b[1]))
const countries = byName(countryCodes, countryName)
const languages = byName(languageCodes, languageName)

/** The Rules tab: conditions tried in order, each with its URL. */
export function RoutingRulesTab({ draft, setDraft, errors, footer }: RoutingTabProps) {
  const places = useScanPlaces()
  const setRule = (i: number, rule: RoutingRule) => setDraft((d) => ({ ...d, rules: d.rules.map((r, j) => (j === i ? rule : r)) }))
  const moveRule = (i: number, by: number) =>
    setDraft((d) => {
      const rules = [...d.rules]
      ;[rules[i], rules[i + by]] = [rules[i + by], rules[i]]
      return { ...d, rules }
    })

  return (
    <TabsContent value="rules" className={`grid content-start gap-3 ${editPanel}`}>
      <p className="text-sm text-slate-600">Rules are tried in order; the first whose conditions all hold sends the scan to its URL or hosted page.</p>
      {draft.rules.map((rule, i) => (
        <fieldset key={i} className="grid gap-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold">Rule {i + 1}</legend>
          {!hasConditions(rule) && (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              This rule has no conditions, so it takes every scan{i < draft.rules.length - 1 ? ' and the rules after it never apply' : ''}. Pick a device, country, region, city, language, day or time.
            </p>
          )}
          <CheckboxGroup
            id={`rule-${i}-os`}
            label={`Rule ${i + 1} devices`}
            options={osOptions}
            value={rule.when.os}
            onChange={(os) => setRule(i, { ...rule, when: { ...rule.when, os } })}
            error={errors[`rules.${i}.when.os`]}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <ChipPicker
              id={`rule-${i}-country`}
              label="Countries"
              options={countries}
              value={rule.when.country ?? []}
              onChange={(country) => setRule(i, { ...rule, when: { ...rule.when, country } })}
              error={errors[`rules.${i}.when.country`]}
            />
            <ChipPicker
              id={`rule-${i}-language`}
              label="Languages"
              options={languages}
              value={rule.when.language ?? []}
              onChange={(language) => setRule(i, { ...rule, when: { ...rule.when, language } })}
              error={errors[`rules.${i}.when.language`]}
            />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {(
              [
                ['region', 'Regions', places.regions],
                ['city', 'Cities', places.cities],
              ] as const
            ).map(([key, label, options]) => (
              <ChipPicker
                key={key}
                id={`rule-${i}-${key}`}
                label={label}
                options={options}
                allowTyped
                value={rule.when[key] ?? []}
                onChange={(list) => setRule(i, { ...rule, when: { ...rule.when, [key]: list } })}
                error={errors[`rules.${i}.when.${key}`]}
              />
            ))}
          </div>
          <p className="text-xs text-slate-500">
            {places.citiesEnabled
              ? 'The lists offer the regions and cities your scans have come from; type any other name (or a region code such as DE-BY) to add it.'
              : 'Regions and cities need a city database on the server (SQUARELY_GEOIP_CITY_DB).'}
          </p>
          <CheckboxGroup
            id={`rule-${i}-days`}
            label={`Rule ${i + 1} days`}
            options={dayOptions}
            value={rule.when.days}
            onChange={(days) => setRule(i, { ...rule, when: { ...rule.when, days } })}
            error={errors[`rules.${i}.when.days`]}
          />
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id={`rule-${i}-from`} label="From" error={errors[`rules.${i}.when.from`]}>
              <Input
                id={`rule-${i}-from`}
                type="time"
                value={rule.when.from ?? ''}
                onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, from: e.target.value } })}
                {...invalidProps(`rule-${i}-from`, errors[`rules.${i}.when.from`])}
              />
            </Field>
            <Field id={`rule-${i}-to`} label="To" error={errors[`rules.${i}.when.to`]}>
              <Input
                id={`rule-${i}-to`}
                type="time"
                value={rule.when.to ?? ''}
                onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, to: e.target.value } })}
                {...invalidProps(`rule-${i}-to`, errors[`rules.${i}.when.to`])}
              />
            </Field>
            <Field id={`rule-${i}-tz`} label="Time zone" error={errors[`rules.${i}.when.timeZone`]}>
              <Input
                id={`rule-${i}-tz`}
                {...invalidProps(`rule-${i}-tz`, errors[`rules.${i}.when.timeZone`])}
                list="routing-time-zones"
                placeholder="UTC"
                value={rule.when.timeZone ?? ''}
                onChange={(e) => setRule(i, { ...rule, when: { ...rule.when, timeZone: e.target.value } })}
              />
            </Field>
          </div>
          <RouteTargetFields
            id={`rule-${i}`}
            name={`Rule ${i + 1}`}
            target={rule}
            onChange={(t) => setRule(i, { when: rule.when, ...t })}
            errors={{ destination: errors[`rules.${i}.destination`], pageId: errors[`rules.${i}.pageId`] }}
          />
          <div className="flex flex-wrap gap-2">
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
  )
}

import type { Dispatch, ReactNode, SetStateAction } from 'react'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { usePages } from '@/features/pages'
import type { RouteTarget, Routing } from '../api/types'
import { invalidProps } from '../lib/routing-errors'

// The form parts the routing tabs are made of. A field's refusal shows
// under it, with the id `${id}-error` its control is described by.

/** What each routing tab gets: the draft routing, the server's refusals by field path, the shared footer. */
export interface RoutingTabProps {
  draft: Routing
  setDraft: Dispatch<SetStateAction<Routing>>
  errors: Record<string, string>
  footer: ReactNode
}

function toggle(list: string[] | undefined, value: string, on: boolean) {
  const rest = (list ?? []).filter((v) => v !== value)
  return on ? [...rest, value] : rest
}

export function Field({ id, label, className, error, children }: { id: string; label: string; className?: string; error?: string; children: ReactNode }) {
  return (
    <div className={`grid min-w-0 gap-1 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  )
}

/** Checkboxes that pick any of options (value, label) into a list; they wrap on a narrow screen. */
export function CheckboxGroup({
  id,
  label,
  options,
  value,
  onChange,
  error,
}: {
  id: string
  label: string
  options: readonly (readonly [string, string])[]
  value: string[] | undefined
  onChange: (value: string[]) => void
  error?: string
}) {
  return (
    <div className="grid gap-1">
      <div id={id} tabIndex={-1} className="flex flex-wrap gap-x-3 gap-y-1 text-sm" role="group" aria-label={label} {...invalidProps(id, error)}>
        {options.map(([option, text]) => (
          <label key={option} className="flex items-center gap-1">
            <input type="checkbox" checked={value?.includes(option) ?? false} onChange={(e) => onChange(toggle(value, option, e.target.checked))} />
            {text}
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  )
}

/**
 * Where a rule or split variant (name: "Rule 1", "Variant A") sends its scans: a URL, or one of
 * the workspace's hosted pages, which the scan is answered with. Its controls' ids start with id
 * (`${id}-destination`, `${id}-page`), as the refusals at `….destination` and `….pageId` name them.
 */
export function RouteTargetFields({
  id,
  name,
  target,
  onChange,
  errors,
}: {
  id: string
  name: string
  target: RouteTarget
  onChange: (t: RouteTarget) => void
  errors: { destination?: string; pageId?: string }
}) {
  const pages = usePages()
  const toPage = target.pageId !== undefined
  return (
    <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
      <Field id={`${id}-kind`} label={`${name} opens`}>
        <NativeSelect
          id={`${id}-kind`}
          value={toPage ? 'page' : 'url'}
          onChange={(e) => onChange(e.target.value === 'page' ? { pageId: pages.data?.[0]?.id ?? 0 } : { destination: '' })}
        >
          <option value="url">A URL</option>
          <option value="page">A hosted page</option>
        </NativeSelect>
      </Field>
      {toPage ? (
        <Field id={`${id}-page`} label={`${name} page`} error={errors.pageId}>
          <NativeSelect id={`${id}-page`} {...invalidProps(`${id}-page`, errors.pageId)} value={String(target.pageId)} onChange={(e) => onChange({ pageId: Number(e.target.value) })}>
            {!pages.data?.some((p) => p.id === target.pageId) && <option value={String(target.pageId)}>{pages.isPending ? 'Loading pages…' : 'Choose a page'}</option>}
            {pages.data?.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.title} (/p/{p.slug})
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : (
        <Field id={`${id}-destination`} label={`${name} URL`} error={errors.destination}>
          <Input
            id={`${id}-destination`}
            {...invalidProps(`${id}-destination`, errors.destination)}
            type="url"
            placeholder="https://example.com"
            value={target.destination ?? ''}
            onChange={(e) => onChange({ destination: e.target.value })}
          />
        </Field>
      )}
    </div>
  )
}

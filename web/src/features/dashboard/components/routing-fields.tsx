import type { ReactNode } from 'react'
import { Label } from '@/components/ui/label'

// The form parts the routing tabs are made of.

function toggle(list: string[] | undefined, value: string, on: boolean) {
  const rest = (list ?? []).filter((v) => v !== value)
  return on ? [...rest, value] : rest
}

export function Field({ id, label, className, children }: { id: string; label: string; className?: string; children: ReactNode }) {
  return (
    <div className={`grid gap-1 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  )
}

/** Checkboxes that pick any of options (value, label) into a list. */
export function CheckboxGroup({
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
export function MultiSelect({
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

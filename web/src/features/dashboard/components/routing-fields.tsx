import type { Dispatch, ReactNode, SetStateAction } from 'react'
import { FieldError } from '@/components/ui/field-error'
import { Label } from '@/components/ui/label'
import type { Routing } from '../api/types'
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

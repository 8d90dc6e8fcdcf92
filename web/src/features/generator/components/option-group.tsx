import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { cn } from '@/lib/utils'

export interface ChoiceOption<T extends string> {
  value: T
  label: string
  icon?: ReactNode
}

/** How each arrow key moves through the options. */
const steps: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }

/**
 * A row of mutually exclusive buttons: a radio group with a button look and the
 * radio group's keyboard (WAI-ARIA APG): one Tab stop, the chosen option (or
 * the first); the arrow keys, Home and End move to another option and choose it.
 */
export function OptionGroup<T extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string
  value: T
  options: ChoiceOption<T>[]
  onChange: (value: T) => void
  disabled?: boolean
}) {
  const id = useId()
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const chosen = options.findIndex((o) => o.value === value)
  const tabStop = chosen < 0 ? 0 : chosen

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    let next: number
    if (event.key in steps) next = (index + steps[event.key] + options.length) % options.length
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = options.length - 1
    else return
    event.preventDefault()
    buttons.current[next]?.focus()
    onChange(options[next].value)
  }

  return (
    <div role="radiogroup" aria-labelledby={`${id}-label`} className="grid gap-1.5">
      <span id={`${id}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </span>
      <div className="flex flex-wrap gap-2">
        {options.map((option, index) => {
          const checked = index === chosen
          return (
            <button
              key={option.value}
              ref={(el) => {
                buttons.current[index] = el
              }}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={index === tabStop ? 0 : -1}
              disabled={disabled}
              onClick={() => onChange(option.value)}
              onKeyDown={(e) => onKeyDown(e, index)}
              className={cn(
                'inline-flex min-w-20 cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:cursor-not-allowed disabled:opacity-50',
                checked
                  ? 'border-primary bg-primary-50 text-secondary ring-1 ring-primary'
                  : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400',
              )}
            >
              {option.icon}
              {option.label}
            </button>
          )
        })}
      </div>
    </div>
  )
}

import { X } from 'lucide-react'
import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { invalidProps } from '../lib/routing-errors'

/**
 * Picks any of many options (countries, languages) as chips: the chosen
 * ones listed by name, each with its remove button, and a search box whose
 * matches (by name or code) drop down below it. With allowTyped, what is
 * typed can be added as it is too (a city no scan has come from yet), as
 * the first choice of the list. Names with a word that starts with what is
 * typed come before those that only contain it. The keyboard moves through
 * the matches with the arrows, Enter adds the highlighted one, Escape
 * closes them, Backspace in the empty box removes the last chip (the
 * ARIA combobox pattern with a listbox popup).
 */
export function ChipPicker({
  id,
  label,
  options,
  value,
  onChange,
  error,
  allowTyped = false,
}: {
  id: string
  /** Names the box ("Countries"); the chips' list is "Chosen countries". */
  label: string
  /** [code, name] pairs, shown in the order given (sorted by name). */
  options: readonly (readonly [string, string])[]
  value: string[]
  onChange: (value: string[]) => void
  error?: string
  allowTyped?: boolean
}) {
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const listId = useId()
  const names = new Map(options)
  const chosen = [...value].sort((a, b) => (names.get(a) ?? a).localeCompare(names.get(b) ?? b))
  const q = query.trim().toLowerCase()
  // "ger" is Germany before Algeria: a code typed in full or a word's start ranks first (sort keeps the order given).
  const ranked = options
    .filter(([code, name]) => !value.includes(code) && (!q || name.toLowerCase().includes(q) || code.toLowerCase() === q))
    .map((option) => ({ option, rank: q && (option[0].toLowerCase() === q || startsWord(option[1], q)) ? 0 : 1 }))
  const found = ranked.sort((a, b) => a.rank - b.rank).slice(0, 50).map((r) => r.option)
  const typed = query.trim()
  const known = (text: string) => text.toLowerCase() === q
  const offerTyped = allowTyped && q !== '' && !options.some(([code, name]) => known(code) || known(name)) && !value.some(known)
  const matches: (readonly [string, string])[] = offerTyped ? [[typed, `Add “${typed}”`], ...found] : found
  const shown = open && matches.length > 0
  const optionId = (i: number) => `${listId}-${i}`
  const current = Math.min(active, matches.length - 1)

  // The highlighted option stays in sight as the arrows move it through a long list.
  useEffect(() => {
    if (shown) document.getElementById(`${listId}-${current}`)?.scrollIntoView({ block: 'nearest' })
  }, [shown, current, listId])

  const add = (code: string) => {
    onChange([...value, code])
    setQuery('')
    setActive(0)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setOpen(true)
      if (matches.length) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length)
    } else if (e.key === 'Enter') {
      // Enter picks; it never submits the dialog's form.
      e.preventDefault()
      if (shown) add(matches[current][0])
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
    } else if (e.key === 'Backspace' && query === '' && chosen.length) {
      onChange(value.filter((v) => v !== chosen[chosen.length - 1]))
    }
  }

  return (
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={id}>{label}</Label>
      {chosen.length > 0 && (
        <ul aria-label={`Chosen ${label.toLowerCase()}`} className="flex flex-wrap gap-1">
          {chosen.map((code) => (
            <li key={code} className="flex max-w-full items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-2.5 pr-1 text-sm text-slate-800">
              <span className="truncate">{names.get(code) ?? code}</span>
              <button
                type="button"
                className="rounded-full p-0.5 text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
                aria-label={`Remove ${names.get(code) ?? code}`}
                onClick={() => onChange(value.filter((v) => v !== code))}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="relative">
        <Input
          id={id}
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown ? optionId(current) : undefined}
          autoComplete="off"
          placeholder="Type to search…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
            setOpen(true)
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          {...invalidProps(id, error)}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          hidden={!shown}
          className="absolute inset-x-0 top-full z-20 mt-1 max-h-48 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {shown &&
            matches.map(([code, name], i) => (
              <li
                key={code}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                className="cursor-pointer px-3 py-1.5 aria-selected:bg-slate-100"
                // Before the box's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault()
                  add(code)
                }}
              >
                {name}
              </li>
            ))}
        </ul>
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  )
}

/** Whether a word of name (or name itself) starts with q, in lower case. */
function startsWord(name: string, q: string): boolean {
  const lower = name.toLowerCase()
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}]/u.test(lower[i - 1])) return true
  }
  return false
}

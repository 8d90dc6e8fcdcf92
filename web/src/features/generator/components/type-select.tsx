import { ChevronDown } from 'lucide-react'
import { lazy, startTransition, Suspense, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { Label } from '@/components/ui/label'
import { selectTriggerClass } from '@/components/ui/select-look'
import { qrTypes, type QrType } from '@/lib/qr-types'

export interface TypeSelectProps {
  id: string
  value: QrType
  onChoose: (type: QrType) => void
  signedIn: boolean
}

// The list (Radix's select, its positioning and focus handling) is not
// needed to show the chosen type: it loads when the pointer or the focus
// comes to the button, which the list then replaces (BENCHMARKS.md, page weight).
const loadList = () => import('./type-select-list')
const TypeSelectList = lazy(() => loadList().then((m) => ({ default: m.TypeSelectList })))

/** The keys that open a closed select (as Radix's). */
const openKeys = [' ', 'Enter', 'ArrowUp', 'ArrowDown']

/** A type's icon and label, as the list and its button show it. */
export function TypeName({ type }: { type: QrType }) {
  const entry = qrTypes.find((t) => t.value === type) ?? qrTypes[0]
  const Icon = entry.icon
  return (
    <span className="inline-flex items-center gap-2">
      <Icon className="size-4 text-slate-500" aria-hidden="true" />
      {entry.label}
    </span>
  )
}

/** The types by label, in a list of limited height that scrolls; badges mark the types a choice may refuse. */
export function TypeSelect(props: TypeSelectProps) {
  const { id, value } = props
  // Set once the user reaches for the list; open when that was a press.
  const [reached, setReached] = useState<{ open: boolean } | null>(null)
  const [focused, setFocused] = useState(false)
  // A transition: the button stays (focused, pressable) until the list's code is in.
  const reach = (open: boolean) => startTransition(() => setReached((r) => ({ open: open || Boolean(r?.open) })))

  const standIn = (
    <button
      type="button"
      id={id}
      role="combobox"
      aria-label="QR code type"
      aria-expanded={false}
      aria-autocomplete="none"
      data-state="closed"
      className={selectTriggerClass}
      onPointerEnter={() => void loadList()}
      onFocus={() => {
        setFocused(true)
        reach(false)
      }}
      onBlur={() => setFocused(false)}
      onPointerDown={(e: PointerEvent) => {
        // A mouse opens on press, touch and pen on the click (as Radix's).
        if (e.button !== 0 || e.ctrlKey || e.pointerType !== 'mouse') return
        e.preventDefault()
        reach(true)
      }}
      onClick={() => reach(true)}
      onKeyDown={(e: KeyboardEvent) => {
        if (!openKeys.includes(e.key)) return
        e.preventDefault()
        reach(true)
      }}
    >
      <span style={{ pointerEvents: 'none' }}>
        <TypeName type={value} />
      </span>
      <ChevronDown className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
    </button>
  )
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>QR code type</Label>
      <Suspense fallback={standIn}>
        {reached ? <TypeSelectList {...props} open={reached.open} autoFocus={focused} /> : standIn}
      </Suspense>
    </div>
  )
}

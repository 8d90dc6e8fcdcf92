import { Check } from 'lucide-react'
import { cn } from '@/lib/utils'

/** The colours a tag can take: distinct on white and with white text. */
export const tagColors = [
  { value: '#2563eb', label: 'Blue' },
  { value: '#16a34a', label: 'Green' },
  { value: '#dc2626', label: 'Red' },
  { value: '#d97706', label: 'Amber' },
  { value: '#7c3aed', label: 'Violet' },
  { value: '#db2777', label: 'Pink' },
  { value: '#0891b2', label: 'Cyan' },
  { value: '#475569', label: 'Slate' },
]

/** A round swatch of a tag's colour. */
export function TagDot({ color, className }: { color: string; className?: string }) {
  return <span aria-hidden="true" className={cn('inline-block size-2.5 shrink-0 rounded-full', className)} style={{ backgroundColor: color }} />
}

/** Picks a tag's colour: a radio group, so arrow keys move between swatches. */
export function TagColorPicker({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium text-slate-700">Colour</legend>
      <div className="flex flex-wrap gap-2">
        {tagColors.map((c) => (
          <span key={c.value} className="relative grid size-8 place-items-center" title={c.label}>
            <input
              type="radio"
              name="tag-color"
              value={c.value}
              checked={value === c.value}
              onChange={() => onChange(c.value)}
              aria-label={c.label}
              className="size-8 cursor-pointer appearance-none rounded-full ring-offset-2 checked:ring-2 checked:ring-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
              style={{ backgroundColor: c.value }}
            />
            {value === c.value && <Check aria-hidden="true" className="pointer-events-none absolute size-4 text-white" />}
          </span>
        ))}
      </div>
    </fieldset>
  )
}

import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'

/** A colour picker of the bulk page: a colour input and a text input for the same value. */
export function ColorField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  const swatch = /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : '#000000'
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} swatch`}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          value={swatch}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
        />
        <Input id={id} className="font-mono uppercase" value={value} onChange={(e) => onChange(e.target.value)} />
      </div>
    </div>
  )
}

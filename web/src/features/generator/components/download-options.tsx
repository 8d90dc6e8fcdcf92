import { useId } from 'react'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import type { DownloadOptions } from '../api/generator-api'

/** PNG sizes offered; the server takes any width from 256 to 4096. */
export const pngSizes = [512, 1024, 2048, 4096] as const
const levels = [
  { value: 'L', label: 'Low (7%)' },
  { value: 'M', label: 'Medium (15%)' },
  { value: 'Q', label: 'Quartile (25%)' },
  { value: 'H', label: 'High (30%)' },
] as const

const selectClass =
  'h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30 disabled:opacity-60'

export type ErrorCorrectionLevel = (typeof levels)[number]['value']

/** The error correction choice; a logo always needs High, so it is fixed then. */
export function ErrorCorrectionSelect({
  value,
  onChange,
  hasLogo,
}: {
  value: ErrorCorrectionLevel
  onChange: (level: ErrorCorrectionLevel) => void
  hasLogo: boolean
}) {
  const id = useId()
  return (
    <div className="grid gap-1">
      <Label htmlFor={`${id}-level`}>Error correction</Label>
      <select
        id={`${id}-level`}
        className={selectClass}
        value={hasLogo ? 'H' : value}
        disabled={hasLogo}
        title={hasLogo ? 'A logo needs High error correction' : undefined}
        onChange={(e) => onChange(e.target.value as ErrorCorrectionLevel)}
      >
        {levels.map((l) => (
          <option key={l.value} value={l.value}>
            {l.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Size, background and error correction for the next download (POST /api/download-qrcode). */
export function DownloadOptionsFields({
  value,
  onChange,
  hasLogo,
}: {
  value: DownloadOptions
  onChange: (next: DownloadOptions) => void
  hasLogo: boolean
}) {
  const id = useId()
  return (
    <fieldset className="mt-4 grid gap-3 rounded-xl border border-slate-200 p-3">
      <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Download options</legend>
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-size`}>PNG size</Label>
          <select
            id={`${id}-size`}
            className={selectClass}
            value={value.pixels ?? ''}
            onChange={(e) => onChange({ ...value, pixels: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">Standard</option>
            {pngSizes.map((px) => (
              <option key={px} value={px}>
                {px} px
              </option>
            ))}
          </select>
        </div>
        <ErrorCorrectionSelect
          value={value.errorCorrectionLevel ?? 'H'}
          onChange={(errorCorrectionLevel) => onChange({ ...value, errorCorrectionLevel })}
          hasLogo={hasLogo}
        />
      </div>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={`${id}-transparent`}>Transparent background</Label>
        <Switch id={`${id}-transparent`} checked={value.transparent ?? false} onCheckedChange={(transparent) => onChange({ ...value, transparent })} />
      </div>
    </fieldset>
  )
}

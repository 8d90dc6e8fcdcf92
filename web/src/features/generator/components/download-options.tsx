import { useEffect, useId, useState } from 'react'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { type CodeBody, type DownloadOptions, type PreflightAnswer, preflight } from '../api/generator-api'

/** PNG sizes offered; the server takes any width from 256 to 4096. */
export const pngSizes = [512, 1024, 2048, 4096] as const
/** Print widths (mm) and densities offered; the server takes 10-2000 mm and 72-1200 dpi. */
export const printSizes = [20, 30, 50, 100, 200, 500] as const
export const printDpis = [150, 300, 600] as const
/** Reading distances (cm) the preflight can be asked about. */
const distances = [
  { value: 30, label: '30 cm (table card)' },
  { value: 100, label: '1 m (shop window)' },
  { value: 200, label: '2 m (poster)' },
  { value: 500, label: '5 m (banner)' },
] as const
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

/** "At 20 mm this code scans from up to 20 cm" and the preflight's warnings, for a chosen print size. */
function PreflightNote({ body, sizeMm, distanceCm }: { body: CodeBody; sizeMm: number; distanceCm?: number }) {
  // The answer for the choice it was asked about: a stale one is not shown.
  const [result, setResult] = useState<{ key: string; answer?: PreflightAnswer }>({ key: '' })
  const key = `${sizeMm}/${distanceCm ?? ''}`
  useEffect(() => {
    let live = true
    preflight(body, sizeMm, distanceCm).then(
      (answer) => live && setResult({ key, answer }),
      () => live && setResult({ key }),
    )
    return () => {
      live = false
    }
  }, [body, sizeMm, distanceCm, key])
  if (result.key !== key) return null
  const answer = result.answer
  if (!answer) return <p className="text-xs text-slate-500">The print check is unavailable right now.</p>
  return (
    <div role="status" className="grid gap-1 text-xs" data-testid="preflight">
      <p className="text-slate-600">
        At {sizeMm} mm this code scans from up to {answer.maxDistanceCm} cm (modules of {answer.moduleMm} mm).
      </p>
      {answer.warnings.map((w) => (
        <p key={w} className="font-medium text-amber-700">
          {w}
        </p>
      ))}
      {answer.gs1 && (
        <p className={answer.gs1.ok ? 'text-emerald-700' : 'font-medium text-amber-700'}>
          {answer.gs1.ok
            ? `GS1: an X-dimension of ${answer.gs1.xDimensionMm} mm suits tills and phones on consumer units.`
            : `GS1: ${answer.gs1.problems.join(' ')}`}
        </p>
      )}
    </div>
  )
}

/** Size, background, error correction and print output for the next download (POST /api/download-qrcode). */
export function DownloadOptionsFields({
  value,
  onChange,
  hasLogo,
  body,
}: {
  value: DownloadOptions
  onChange: (next: DownloadOptions) => void
  hasLogo: boolean
  /** The generated code's body, for the print preflight. */
  body?: CodeBody
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
            disabled={value.sizeMm !== undefined}
            title={value.sizeMm !== undefined ? 'The print size sets the PNG size' : undefined}
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
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-mm`}>Print size</Label>
          <select
            id={`${id}-mm`}
            className={selectClass}
            value={value.sizeMm ?? ''}
            onChange={(e) => onChange({ ...value, sizeMm: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">Screen (no print size)</option>
            {printSizes.map((mm) => (
              <option key={mm} value={mm}>
                {mm} mm
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-dpi`}>PNG resolution</Label>
          <select
            id={`${id}-dpi`}
            className={selectClass}
            value={value.dpi ?? 300}
            disabled={value.sizeMm === undefined}
            onChange={(e) => onChange({ ...value, dpi: Number(e.target.value) })}
          >
            {printDpis.map((dpi) => (
              <option key={dpi} value={dpi}>
                {dpi} dpi
              </option>
            ))}
          </select>
        </div>
      </div>
      {value.sizeMm !== undefined && (
        <>
          <div className="grid gap-1">
            <Label htmlFor={`${id}-distance`}>Read from</Label>
            <select
              id={`${id}-distance`}
              className={selectClass}
              value={value.distanceCm ?? ''}
              onChange={(e) => onChange({ ...value, distanceCm: e.target.value ? Number(e.target.value) : undefined })}
            >
              <option value="">Any distance</option>
              {distances.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
          {body && <PreflightNote body={body} sizeMm={value.sizeMm} distanceCm={value.distanceCm} />}
        </>
      )}
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={`${id}-cmyk`}>CMYK for print (PDF, EPS)</Label>
        <Switch id={`${id}-cmyk`} checked={value.cmyk ?? false} onCheckedChange={(cmyk) => onChange({ ...value, cmyk })} />
      </div>
    </fieldset>
  )
}

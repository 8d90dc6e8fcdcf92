import { useEffect, useId, useState } from 'react'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { cn } from '@/lib/utils'
import type { DownloadOptions, PreflightAnswer, PreflightCheck } from '../api/generator-api'

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

/** A frame makes the file 20% wider and 30% higher than the code (docs/API.md "Print output"). */
function framedSize(width: number, unit: string) {
  return `${Math.round(width * 1.2)} × ${Math.round(width * 1.3)} ${unit}`
}

/** A size option's label: the code's width, and with a frame the whole file's. */
function sizeLabel(width: number, unit: string, framed: boolean) {
  return framed ? `${width} ${unit} code, file ${framedSize(width, unit)}` : `${width} ${unit}`
}

/** "At 20 mm this code scans from up to 20 cm" and the preflight's warnings, for a chosen print size. */
function PreflightNote({ check, sizeMm, distanceCm }: { check: PreflightCheck; sizeMm: number; distanceCm?: number }) {
  // The answer for the choice it was asked about: a stale one is not shown.
  const [result, setResult] = useState<{ key: string; answer?: PreflightAnswer }>({ key: '' })
  const key = `${sizeMm}/${distanceCm ?? ''}`
  useEffect(() => {
    let live = true
    check(sizeMm, distanceCm).then(
      (answer) => live && setResult({ key, answer }),
      () => live && setResult({ key }),
    )
    return () => {
      live = false
    }
  }, [check, sizeMm, distanceCm, key])
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

/**
 * Size, background, error correction and print output for the next download: a generated
 * code's (POST /api/download-qrcode) or a saved code's (its image route).
 */
export function DownloadOptionsFields({
  value,
  onChange,
  errorCorrection,
  check,
  framed = false,
  className,
}: {
  value: DownloadOptions
  onChange: (next: DownloadOptions) => void
  /** Offers the error correction (a code not saved yet; a saved code keeps its own); a logo fixes it at High. */
  errorCorrection?: { hasLogo: boolean }
  /** The print preflight for the code; without it no verdict is shown. */
  check?: PreflightCheck
  /** The code has a frame: the sizes say the whole file's width and height too. */
  framed?: boolean
  className?: string
}) {
  const id = useId()
  return (
    <fieldset className={cn('grid gap-3 rounded-xl border border-slate-200 p-3', className ?? 'mt-4')}>
      <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Download options</legend>
      <div className={cn('grid gap-3', errorCorrection && !framed && 'sm:grid-cols-2')}>
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
                {sizeLabel(px, 'px', framed)}
              </option>
            ))}
          </select>
        </div>
        {errorCorrection && (
          <ErrorCorrectionSelect
            value={value.errorCorrectionLevel ?? 'H'}
            onChange={(errorCorrectionLevel) => onChange({ ...value, errorCorrectionLevel })}
            hasLogo={errorCorrection.hasLogo}
          />
        )}
      </div>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={`${id}-transparent`}>Transparent background</Label>
        <Switch id={`${id}-transparent`} checked={value.transparent ?? false} onCheckedChange={(transparent) => onChange({ ...value, transparent })} />
      </div>
      <div className={cn('grid gap-3', !framed && 'sm:grid-cols-2')}>
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
                {sizeLabel(mm, 'mm', framed)}
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
          {check && <PreflightNote check={check} sizeMm={value.sizeMm} distanceCm={value.distanceCm} />}
        </>
      )}
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={`${id}-cmyk`}>CMYK for print (PDF, EPS)</Label>
        <Switch id={`${id}-cmyk`} checked={value.cmyk ?? false} onCheckedChange={(cmyk) => onChange({ ...value, cmyk })} />
      </div>
    </fieldset>
  )
}

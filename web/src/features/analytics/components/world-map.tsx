import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { countryName } from '../lib/country-name'
import { nounFor } from '@/lib/count'

/** Scans from one country, by its ISO 3166-1 alpha-2 code. */
export interface CountryScans {
  country: string
  scans: number
}

// From a light to a dark tint of the brand colour, so white-label clients keep theirs.
const light = 'color-mix(in srgb, var(--color-primary) 35%, white)'
const dark = 'color-mix(in srgb, var(--color-primary) 60%, black)'

/**
 * How dark a country is drawn, from 0 (one scan) to 1 (the most scans).
 * Logarithmic: next to a country with thousands of scans, one with a handful
 * still stands out from those with none.
 */
export function shade(scans: number, max: number) {
  if (max <= 1) return 1
  return Math.log(Math.max(scans, 1)) / Math.log(max)
}

const fill = (t: number) => `color-mix(in oklab, ${dark} ${Math.round(t * 100)}%, ${light})`

const scansText = (n: number) => `${n.toLocaleString()} ${nounFor(n, 'scan')}`

// The shapes (about 100 kB) load on first use, in their own chunk, and stay for the session.
const loadShapes = () => import('../lib/world-shapes').then((m) => ({ shapes: m.worldShapes(), viewBox: m.viewBox }))

/** Countries shaded by their scans, drawn from bundled shapes: no tiles, nothing fetched from elsewhere. */
export function WorldMap({ countries }: { countries: CountryScans[] }) {
  const { data, isError } = useQuery({ queryKey: ['world-shapes'], queryFn: loadShapes, staleTime: Infinity, gcTime: Infinity })
  const [active, setActive] = useState<string>()

  if (isError) return <p className="py-6 text-center text-sm text-slate-500">The map could not be loaded; the table lists every country.</p>
  if (!data) {
    return (
      <div className="grid aspect-[2/1] place-items-center rounded-lg bg-slate-100 text-xs text-slate-500" role="status">
        Loading map...
      </div>
    )
  }

  const drawn = new Set(data.shapes.map((s) => s.code))
  const scans = new Map<string, number>()
  const notDrawn: CountryScans[] = []
  for (const c of countries) {
    if (c.scans <= 0) continue
    if (drawn.has(c.country)) scans.set(c.country, c.scans)
    else notDrawn.push(c)
  }
  // The scale follows the countries on the map, so one missing from it cannot wash the others out.
  const max = Math.max(0, ...scans.values())
  const ticks = [...new Set([1, Math.round(Math.sqrt(max)), max])].filter((v) => v >= 1 && v <= max)
  const { x, y, width, height } = data.viewBox
  const label = (code: string) => `${countryName(code)}: ${scansText(scans.get(code) ?? 0)}`
  // Countries with scans go last, so their outline on hover or focus is not covered by a neighbour.
  const ordered = [...data.shapes].sort((a, b) => Number(scans.has(a.code)) - Number(scans.has(b.code)))

  return (
    <figure className="grid min-w-0 content-start gap-2">
      <p className="min-h-5 text-sm font-medium text-slate-700" aria-hidden="true">
        {active ? label(active) : <span className="font-normal text-slate-500">Point at or tab to a shaded country to see its scans.</span>}
      </p>
      <svg viewBox={`${x} ${y} ${width} ${height}`} className="h-auto w-full" role="group" aria-label="World map of scans by country">
        {ordered.map((s, i) =>
          scans.has(s.code) ? (
            <path
              key={s.code}
              d={s.d}
              role="img"
              aria-label={label(s.code)}
              tabIndex={0}
              fillRule="evenodd"
              style={{ fill: fill(shade(scans.get(s.code) ?? 0, max)) }}
              className="stroke-white stroke-[0.5] outline-none hover:stroke-slate-900 hover:stroke-[1.2] focus-visible:stroke-slate-900 focus-visible:stroke-[1.2]"
              onMouseEnter={() => setActive(s.code)}
              onMouseLeave={() => setActive(undefined)}
              onFocus={() => setActive(s.code)}
              onBlur={() => setActive(undefined)}
            >
              <title>{label(s.code)}</title> {/* the pointer's tooltip */}
            </path>
          ) : (
            <path key={`${s.code}-${i}`} d={s.d} fillRule="evenodd" className="fill-slate-200 stroke-white stroke-[0.5]" aria-hidden="true" />
          ),
        )}
      </svg>
      {max > 0 && (
        <figcaption className="flex items-start gap-3 text-[11px] text-slate-500">
          <span className="pt-px">Scans per country</span>
          <span className="relative block max-w-56 flex-1 pb-4">
            <span className="block h-2 rounded-full" style={{ background: `linear-gradient(to right, ${light}, ${dark})` }} />
            {ticks.map((v) => (
              <span key={v} className="absolute top-3 -translate-x-1/2 tabular-nums" style={{ left: `${shade(v, max) * 100}%` }}>
                {v.toLocaleString()}
              </span>
            ))}
          </span>
        </figcaption>
      )}
      {notDrawn.length > 0 && (
        <p className="text-[11px] text-slate-500">
          Too small for this map or not on it: {notDrawn.map((c) => `${countryName(c.country)} (${c.scans.toLocaleString()})`).join(', ')}.
        </p>
      )}
    </figure>
  )
}

import { cn } from '@/lib/utils'
import { countOf } from '@/lib/count'

/** The value axis's top: the next plain number (1, 2, 2.5 or 5 times a power of ten) at or above value. */
export function niceMax(value: number) {
  if (value <= 4) return 4
  const magnitude = 10 ** Math.floor(Math.log10(value))
  return ([1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value) ?? 10) * magnitude
}

/** One bar: key is unique, label names it (e.g. 'Nov 21' or 'Nov 21, 14:00'). */
export interface Bar {
  key: string
  label: string
  value: number
}

/** Vertical bars over time, drawn with plain elements so they stay crisp at any width. */
/** `unit` is the singular noun of one bar ('day', 'hour'). */
export function BarChart({ bars, label, unit }: { bars: Bar[]; label: string; unit: string }) {
  const max = niceMax(Math.max(0, ...bars.map((d) => d.value)))
  const total = bars.reduce((sum, d) => sum + d.value, 0)
  const ticks = [max, max / 2, 0]
  return (
    <figure className="grid gap-2" aria-label={`${label}: ${total} in ${countOf(bars.length, unit)}`}>
      <div className="grid grid-cols-[auto_1fr] gap-2">
        <div className="flex h-44 flex-col justify-between text-right text-[10px] tabular-nums text-slate-500">
          {ticks.map((t) => (
            <span key={t}>{Number.isInteger(t) ? t : t.toFixed(1)}</span>
          ))}
        </div>
        <div className="relative h-44">
          <div className="pointer-events-none absolute inset-0 flex flex-col justify-between" aria-hidden="true">
            {ticks.map((t) => (
              <div key={t} className="border-t border-dashed border-slate-200" />
            ))}
          </div>
          <ol className="relative flex h-full items-end gap-[2px]">
            {bars.map((d) => (
              <li key={d.key} className="group relative flex h-full flex-1 items-end" title={`${d.label}: ${d.value}`}>
                <span
                  className="w-full rounded-t-sm bg-primary/85 transition-colors group-hover:bg-secondary"
                  style={{ height: d.value ? `${Math.max((d.value / max) * 100, 2)}%` : 0 }}
                />
                <span className="sr-only">
                  {d.label}: {d.value}
                </span>
              </li>
            ))}
          </ol>
        </div>
      </div>
      {bars.length > 0 && (
        <div className="ml-6 flex justify-between text-[10px] text-slate-500" aria-hidden="true">
          <span>{bars[0].label}</span>
          {bars.length > 2 && <span>{bars[Math.floor(bars.length / 2)].label}</span>}
          <span>{bars[bars.length - 1].label}</span>
        </div>
      )}
    </figure>
  )
}

const palette = ['bg-primary', 'bg-violet-500', 'bg-emerald-500', 'bg-amber-500', 'bg-rose-500', 'bg-cyan-500', 'bg-slate-400']

/** Horizontal bars with each entry's share of the total, largest first. */
export function ShareBars({ entries, empty = 'No data yet', capitalize = false }: { entries: { label: string; value: number }[]; empty?: string; capitalize?: boolean }) {
  const sorted = entries.filter((e) => e.value > 0).sort((a, b) => b.value - a.value)
  const total = sorted.reduce((sum, e) => sum + e.value, 0)
  if (total === 0) return <p className="py-6 text-center text-sm text-slate-500">{empty}</p>
  return (
    <ul className="grid gap-3">
      {sorted.map((e, i) => {
        const pct = Math.round((e.value / total) * 100)
        return (
          <li key={e.label} className="grid gap-1">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className={cn('truncate font-medium text-slate-700', capitalize && 'capitalize')}>{e.label}</span>
              <span className="shrink-0 tabular-nums text-slate-500">
                {e.value} · {pct}%
              </span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-slate-100">
              <div className={cn('h-full rounded-full', palette[i % palette.length])} style={{ width: `${Math.max(pct, 1)}%` }} />
            </div>
          </li>
        )
      })}
    </ul>
  )
}

/** Two parts of a whole as a ring (humans against bots). */
export function SplitRing({ a, b, labelA, labelB }: { a: number; b: number; labelA: string; labelB: string }) {
  const total = a + b
  const share = total ? a / total : 0
  const r = 15.915 // a circumference of 100 makes the dash array a percentage
  return (
    <div className="flex items-center gap-4">
      <svg viewBox="0 0 36 36" className="size-24 -rotate-90" role="img" aria-label={`${labelA} ${a}, ${labelB} ${b}`}>
        <circle cx="18" cy="18" r={r} fill="none" strokeWidth="4" className="stroke-slate-200" />
        {total > 0 && <circle cx="18" cy="18" r={r} fill="none" strokeWidth="4" strokeDasharray={`${share * 100} 100`} className="stroke-primary" />}
      </svg>
      <dl className="grid gap-2 text-sm">
        <div className="flex items-center gap-2">
          <span className="size-2.5 rounded-full bg-primary" aria-hidden="true" />
          <dt className="text-slate-600">{labelA}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{a}</dd>
        </div>
        <div className="flex items-center gap-2">
          <span className="size-2.5 rounded-full bg-slate-300" aria-hidden="true" />
          <dt className="text-slate-600">{labelB}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{b}</dd>
        </div>
      </dl>
    </div>
  )
}

/** A record of counts as chart entries. */
export function toEntries(counts: Record<string, number> | undefined, label: (key: string) => string = (k) => k) {
  return Object.entries(counts ?? {}).map(([key, value]) => ({ label: label(key), value }))
}

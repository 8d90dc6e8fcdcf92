import type { ScanReport } from '../api/types'

const colors = ['bg-primary', 'bg-violet-500', 'bg-emerald-500', 'bg-amber-500', 'bg-rose-500', 'bg-cyan-500', 'bg-slate-400']

/** Whether a report's routes say more than "all went to the destination": a code with rules or a split that served scans. */
export function hasRoutes(report: ScanReport) {
  return report.routes.some((r) => r.route !== 'default')
}

/**
 * A code's scans by the route that served them (issue 39), named as its
 * owner set them up ("Rule 1: iOS", "Variant B 50%"): one bar split by
 * share, then a table with each route's scans, share and, for a split's
 * variant, its share of the split.
 */
export function RoutesTable({ routes }: { routes: ScanReport['routes'] }) {
  const total = routes.reduce((sum, r) => sum + r.scans, 0)
  const splitTotal = routes.filter((r) => r.route.startsWith('split:')).reduce((sum, r) => sum + r.scans, 0)
  const pct = (n: number, of: number) => (of ? Math.round((n / of) * 100) : 0)
  return (
    <div className="grid gap-4">
      <div className="flex h-3 overflow-hidden rounded-full bg-slate-100" role="img" aria-label={routes.map((r) => `${r.name} ${pct(r.scans, total)}%`).join(', ')}>
        {routes.map((r, i) => (
          <div key={r.route} className={colors[i % colors.length]} style={{ width: `${(r.scans / (total || 1)) * 100}%` }} title={`${r.name}: ${r.scans}`} />
        ))}
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" aria-label="Scans by route">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
              <th scope="col" className="py-1 font-medium">Route</th>
              <th scope="col" className="py-1 text-right font-medium">Scans</th>
              <th scope="col" className="py-1 text-right font-medium">Share</th>
              <th scope="col" className="py-1 text-right font-medium">Of the split</th>
            </tr>
          </thead>
          <tbody>
            {routes.map((r, i) => (
              <tr key={r.route} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="py-1 text-left font-normal text-slate-900">
                  <span className={`mr-2 inline-block size-2 rounded-full ${colors[i % colors.length]}`} aria-hidden="true" />
                  {r.name}
                </th>
                <td className="py-1 text-right tabular-nums text-slate-700">{r.scans}</td>
                <td className="py-1 text-right tabular-nums text-slate-700">{pct(r.scans, total)}%</td>
                <td className="py-1 text-right tabular-nums text-slate-500">{r.route.startsWith('split:') ? `${pct(r.scans, splitTotal)}%` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

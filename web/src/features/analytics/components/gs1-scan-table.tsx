import { Spinner } from '@/components/ui/spinner'
import { useGs1Scans } from '../api/gs1-scans'

/**
 * The workspace's resolved GS1 scans of the last 30 days, one row per GTIN,
 * lot and link type, with the product's name where the GTIN is listed
 * (the Analytics Dashboard's panel and the Products page).
 */
export function Gs1ScanTable({ caption }: { caption: string }) {
  const scans = useGs1Scans()
  if (scans.isPending) return <Spinner label="Loading scans..." />
  if (scans.isError) return <p className="text-sm text-red-700">Could not load the GS1 scans.</p>
  if (scans.data.scans.length === 0) return <p className="text-sm text-slate-600">No scans yet.</p>
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-slate-500">
            <th scope="col" className="py-1">Product</th>
            <th scope="col">GTIN</th>
            <th scope="col">Lot</th>
            <th scope="col">Link type</th>
            <th scope="col" className="text-right">Scans</th>
          </tr>
        </thead>
        <tbody>
          {scans.data.scans.map((s) => (
            <tr key={`${s.gtin}/${s.lot}/${s.linkType}`} className="border-t border-slate-100">
              <td className="py-1">{s.name || '—'}</td>
              <td className="tabular-nums">{s.gtin}</td>
              <td>{s.otherLots ? 'Other lots' : s.lot || '—'}</td>
              <td>{s.linkType}</td>
              <td className="text-right tabular-nums">{s.scans.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
        {scans.data.otherRows > 0 && (
          <tfoot>
            <tr className="border-t border-slate-200 text-slate-600">
              <td className="py-1" colSpan={4}>
                {scans.data.otherRows.toLocaleString()} more {scans.data.otherRows === 1 ? 'row' : 'rows'}
              </td>
              <td className="text-right tabular-nums">{scans.data.otherScans.toLocaleString()}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  )
}

/** Whether the workspace has resolved any GS1 scan in the last 30 days. */
export function useHasGs1Scans() {
  const scans = useGs1Scans()
  return (scans.data?.scans.length ?? 0) > 0
}

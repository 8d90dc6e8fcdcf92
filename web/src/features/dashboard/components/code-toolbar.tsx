import { Search } from 'lucide-react'
import { useId } from 'react'
import { Input } from '@/components/ui/input'
import { qrTypes } from '@/lib/qr-types'
import type { CodeQuery, KindFilter, SortOrder } from '../lib/find-codes'

const selectClass =
  'h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30'

/** Search, type and kind filters and the sort order of a code list. */
export function CodeToolbar({ query, onChange, showKind = true }: { query: CodeQuery; onChange: (q: CodeQuery) => void; showKind?: boolean }) {
  const id = useId()
  return (
    <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-[minmax(0,1fr)_auto_auto_auto]" role="search">
      <div className="relative sm:col-span-2 xl:col-span-1">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search codes"
          placeholder="Search by name, destination or short code"
          className="pl-9"
          value={query.search}
          onChange={(e) => onChange({ ...query, search: e.target.value })}
        />
      </div>
      <select aria-label="Type" id={`${id}-type`} className={selectClass} value={query.type} onChange={(e) => onChange({ ...query, type: e.target.value })}>
        <option value="">All types</option>
        {qrTypes.map((t) => (
          <option key={t.value} value={t.value}>
            {t.label}
          </option>
        ))}
      </select>
      {showKind && (
        <select aria-label="Kind" className={selectClass} value={query.kind} onChange={(e) => onChange({ ...query, kind: e.target.value as KindFilter })}>
          <option value="all">Static and dynamic</option>
          <option value="static">Static</option>
          <option value="dynamic">Dynamic</option>
        </select>
      )}
      <select aria-label="Sort by" className={selectClass} value={query.sort} onChange={(e) => onChange({ ...query, sort: e.target.value as SortOrder })}>
        <option value="newest">Newest first</option>
        <option value="oldest">Oldest first</option>
        <option value="name">Name</option>
        <option value="scans">Most scans</option>
      </select>
    </div>
  )
}

import { useState } from 'react'
import type { BulkResult } from '../lib/run-bulk'
import { Badge } from '@/components/ui/badge'

/** Each row's height in pixels: fixed, so only the rows in view need to be in the page. */
const ROW_HEIGHT = 60
/** The list's height: about 24rem (spec 02 §2). */
const LIST_HEIGHT = 384
const OVERSCAN = 5

/**
 * The scrolling results: each row the item's text, its error line if any and
 * a status badge. Only the rows in view are drawn, so 10,000 results keep
 * the page responsive.
 */
export function ResultsList({ results }: { results: BulkResult[] }) {
  const [scrollTop, setScrollTop] = useState(0)
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(results.length, Math.ceil((scrollTop + LIST_HEIGHT) / ROW_HEIGHT) + OVERSCAN)
  return (
    <div className="max-h-96 overflow-y-auto rounded-lg border border-slate-200" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <ul aria-label="Generated QR codes" className="relative" style={{ height: results.length * ROW_HEIGHT }}>
        {results.slice(first, last).map((r, i) => (
          <li
            key={r.id}
            className="absolute inset-x-0 flex items-center justify-between gap-3 border-b border-slate-100 px-3"
            style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}
          >
            <div className="min-w-0">
              <p className="truncate text-sm text-slate-900" title={r.data}>
                {r.data}
              </p>
              {r.error && (
                // The server's reason (an invalid URL, too much data, …) is what the user can act on.
                <p className="line-clamp-2 text-xs leading-4 text-red-700" title={r.error}>
                  {r.reason ?? r.error}
                </p>
              )}
            </div>
            <Badge tone={r.status === 'success' ? 'emerald' : 'red'} className="font-medium">
              {r.status}
            </Badge>
          </li>
        ))}
      </ul>
    </div>
  )
}

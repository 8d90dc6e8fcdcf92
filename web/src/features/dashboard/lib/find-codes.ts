import type { SavedCode } from '../api/types'

export type KindFilter = 'all' | 'static' | 'dynamic'
export type SortOrder = 'newest' | 'oldest' | 'name' | 'scans'

export interface CodeQuery {
  /** Matched case-insensitively against the name, the destination (or encoded text) and the short code. */
  search: string
  /** A qrType, or '' for every type. */
  type: string
  kind: KindFilter
  sort: SortOrder
}

export const emptyQuery: CodeQuery = { search: '', type: '', kind: 'all', sort: 'newest' }

function haystack(code: SavedCode): string {
  const parts = [code.name, code.data]
  if (code.qrMode === 'dynamic') parts.push(code.destination, code.shortCode, code.shortUrl)
  return parts.join('\n').toLowerCase()
}

const byDate = (a: SavedCode, b: SavedCode) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })

/** The codes the query keeps, in its order; the input is left as it was. */
export function findCodes(codes: SavedCode[], q: CodeQuery): SavedCode[] {
  const needle = q.search.trim().toLowerCase()
  const kept = codes.filter(
    (code) =>
      (!needle || haystack(code).includes(needle)) &&
      (!q.type || code.qrType === q.type) &&
      (q.kind === 'all' || code.qrMode === q.kind),
  )
  switch (q.sort) {
    case 'oldest':
      return kept.sort(byDate)
    case 'name':
      return kept.sort((a, b) => collator.compare(a.name, b.name) || byDate(b, a))
    case 'scans':
      // Static codes are not counted: they go last.
      return kept.sort((a, b) => scans(b) - scans(a) || byDate(b, a))
    default:
      return kept.sort((a, b) => byDate(b, a))
  }
}

function scans(code: SavedCode) {
  return code.qrMode === 'dynamic' ? code.scanCount : -1
}

/** The dashboard's list controls, sent to GET /api/codes (issue 22) as they are. */
export type KindFilter = 'all' | 'static' | 'dynamic'
export type SortOrder = 'newest' | 'oldest' | 'name' | 'scans'
export type CodeStatus = 'active' | 'paused'

export interface CodeQuery {
  /** Matched by the server, case-insensitively, against the name, the destination and the tag names. */
  search: string
  /** A qrType, or '' for every type. */
  type: string
  kind: KindFilter
  sort: SortOrder
  /** A tag id, or '' for any. */
  tag: string
  /** A folder id, or '' for any. */
  folder: string
}

export const emptyQuery: CodeQuery = { search: '', type: '', kind: 'all', sort: 'newest', tag: '', folder: '' }

/** Whether the query narrows the list (an empty result then means "no match", not "no codes"). */
export function isFiltered(q: CodeQuery) {
  return q.search.trim() !== '' || q.type !== '' || q.kind !== 'all' || q.tag !== '' || q.folder !== ''
}

const sorts: Record<SortOrder, { sort: string; order: string }> = {
  newest: { sort: 'created', order: 'desc' },
  oldest: { sort: 'created', order: 'asc' },
  name: { sort: 'name', order: 'asc' },
  scans: { sort: 'scans', order: 'desc' },
}

export const pageSize = 24

/** The query string of one page of the list; only the filters in use are sent. */
export function codeListParams(q: CodeQuery, status: CodeStatus, cursor?: string): URLSearchParams {
  const params = new URLSearchParams()
  const search = q.search.trim()
  if (search) params.set('q', search)
  if (q.kind !== 'all') params.set('kind', q.kind)
  if (q.type) params.set('type', q.type)
  params.set('status', status)
  if (q.tag) params.set('tag', q.tag)
  if (q.folder) params.set('folder', q.folder)
  params.set('sort', sorts[q.sort].sort)
  params.set('order', sorts[q.sort].order)
  params.set('limit', String(pageSize))
  if (cursor) params.set('cursor', cursor)
  return params
}

/** What the dashboard shows at its query string: the active codes, the paused ones, or the create view. */
export type DashboardView = 'active' | 'paused' | 'create'

export function dashboardView(params: URLSearchParams): DashboardView {
  if (params.get('create') === 'true') return 'create'
  if (params.get('view') === 'paused') return 'paused'
  return 'active'
}

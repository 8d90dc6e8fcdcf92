import { Search, Tags } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { NativeSelect } from '@/components/ui/native-select'
import { qrTypes } from '@/lib/qr-types'
import type { CodeQuery, KindFilter, SortOrder } from '../lib/code-query'
import type { Folder, Tag } from '../api/types'

/**
 * Search, type, kind, tag and folder filters and the sort order of a code
 * list; the server applies them. `onOrganise` offers managing the tags and
 * folders (to roles that may).
 */
export function CodeToolbar({
  query,
  onChange,
  showKind = true,
  tags = [],
  folders = [],
  onOrganise,
}: {
  query: CodeQuery
  onChange: (q: CodeQuery) => void
  showKind?: boolean
  tags?: Tag[]
  folders?: Folder[]
  onOrganise?: () => void
}) {
  return (
    <div className="grid gap-2" role="search">
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input
            type="search"
            aria-label="Search codes"
            placeholder="Search by name, destination or tag"
            className="pl-9"
            value={query.search}
            onChange={(e) => onChange({ ...query, search: e.target.value })}
          />
        </div>
        {onOrganise && (
          <Button type="button" variant="outline" onClick={onOrganise} aria-label="Manage tags and folders" title="Manage tags and folders">
            <Tags aria-hidden="true" />
            <span className="hidden sm:inline">Tags and folders</span>
          </Button>
        )}
      </div>
      <div className="grid grid-cols-2 gap-2 lg:flex lg:flex-wrap [&>select]:min-w-0 lg:[&>select]:flex-auto">
        <NativeSelect aria-label="Type" value={query.type} onChange={(e) => onChange({ ...query, type: e.target.value })}>
          <option value="">All types</option>
          {qrTypes.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </NativeSelect>
        {showKind && (
          <NativeSelect aria-label="Kind" value={query.kind} onChange={(e) => onChange({ ...query, kind: e.target.value as KindFilter })}>
            <option value="all">Static and dynamic</option>
            <option value="static">Static</option>
            <option value="dynamic">Dynamic</option>
          </NativeSelect>
        )}
        <NativeSelect aria-label="Tag" value={query.tag} onChange={(e) => onChange({ ...query, tag: e.target.value })}>
          <option value="">All tags</option>
          {tags.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.name}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect aria-label="Folder" value={query.folder} onChange={(e) => onChange({ ...query, folder: e.target.value })}>
          <option value="">All folders</option>
          {folders.map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.name}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect aria-label="Sort by" value={query.sort} onChange={(e) => onChange({ ...query, sort: e.target.value as SortOrder })}>
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
          <option value="name">Name</option>
          <option value="scans">Most scans</option>
        </NativeSelect>
      </div>
    </div>
  )
}

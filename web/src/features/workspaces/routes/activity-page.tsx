import { Download } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { can, useActiveWorkspace, type ActiveWorkspace } from '@/lib/workspace'
import { auditLogUrl, useAuditLog, type AuditEntry } from '../api/audit-log'
import { WorkspacePage } from '../components/workspace-page'
import { actionLabel, describeDetails } from '../lib/audit'
import { formatDateTime } from '@/lib/dates'

function formatTime(iso: string) {
  return formatDateTime(iso) || iso
}

/** /workspace/activity: who changed what in the active workspace (owners and admins). */
export function ActivityPage() {
  usePageTitle(siteTitle('Activity'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Activity">
      {can(workspace.role, 'manageMembers') ? (
        <AuditLog key={workspace.id} workspace={workspace} />
      ) : (
        <Alert>Only owners and admins of {workspace.name} can see its activity.</Alert>
      )}
    </WorkspacePage>
  )
}

function AuditLog({ workspace }: { workspace: ActiveWorkspace }) {
  const log = useAuditLog(workspace.id)
  const entries = log.data?.pages.flatMap((p) => p.items)
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Audit log</CardTitle>
          <CardDescription>Every change to codes, tags, folders, brand kits, members, API keys and the workspace, newest first.</CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <a href={auditLogUrl(workspace.id, 'csv')} download>
            <Download aria-hidden="true" /> Download CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        {log.isPending && <Spinner label="Loading activity..." />}
        {log.isError && <Alert variant="destructive">{serverMessage(log.error) ?? 'Failed to load the activity.'}</Alert>}
        {entries?.length === 0 && <p className="text-sm text-slate-600">Nothing has changed yet.</p>}
        {entries && entries.length > 0 && (
          <ol className="grid divide-y divide-slate-100" aria-label="Activity">
            {entries.map((entry, i) => (
              <EntryRow key={`${entry.at}-${i}`} entry={entry} />
            ))}
          </ol>
        )}
        {log.hasNextPage && (
          <Button variant="outline" className="justify-self-center" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading...' : 'Show older'}
          </Button>
        )}
      </CardContent>
    </Card>
  )
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const email = entry.actor.email ?? 'A former member'
  const who = entry.actor.type === 'api_key' ? `API key #${entry.actor.id} (${email})` : email
  const details = describeDetails(entry.details)
  return (
    <li className="grid gap-1 py-3 sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-4">
      <time dateTime={entry.at} className="text-xs text-slate-500 sm:pt-0.5">
        {formatTime(entry.at)}
      </time>
      <div className="min-w-0 text-sm">
        <p className="break-words text-slate-900">
          <span className="font-medium">{who}</span> {actionLabel(entry.action)}
          {/* One who joined is both actor and target: named once. */}
          {entry.target.name && entry.target.name !== entry.actor.email && <span className="font-medium"> {entry.target.name}</span>}
        </p>
        {details && <p className="break-words text-xs text-slate-600">{details}</p>}
      </div>
    </li>
  )
}

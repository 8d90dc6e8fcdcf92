import { Alert } from '@/components/ui/alert'
import { Spinner } from '@/components/ui/spinner'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { can, useActiveWorkspace } from '@/lib/workspace'
import { WorkspacePage } from '@/features/workspaces'
import { WebhooksCard } from '../components/webhooks-card'

/** /webhooks: the active workspace's webhook endpoints and their deliveries (owners and admins). */
export function WebhooksPage() {
  usePageTitle(siteTitle('Webhooks'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Webhooks">
      {can(workspace.role, 'manageMembers') ? (
        <WebhooksCard key={workspace.id} />
      ) : (
        <Alert>Only owners and admins of {workspace.name} can manage its webhooks.</Alert>
      )}
    </WorkspacePage>
  )
}

import { Spinner } from '@/components/ui/spinner'
import { DomainsCard } from '@/features/domains/components/domains-card'
import { WorkspacePage } from '@/features/workspaces/components/workspace-page'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useActiveWorkspace } from '@/lib/workspace'

/** /workspace/domains: the workspace frame around the domains card (features do not import each other, so the app composes them). */
export function WorkspaceDomainsRoute() {
  usePageTitle(siteTitle('Domains'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Domains">
      <DomainsCard key={workspace.id} workspaceName={workspace.name} />
    </WorkspacePage>
  )
}

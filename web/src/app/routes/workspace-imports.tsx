import { Spinner } from '@/components/ui/spinner'
import { useDomains } from '@/features/domains/api/domains'
import { ImportCard } from '@/features/imports/components/import-card'
import { WorkspacePage } from '@/features/workspaces/components/workspace-page'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useActiveWorkspace } from '@/lib/workspace'

/** /workspace/imports: the workspace frame around the import card, with its verified domains. */
export function WorkspaceImportsRoute() {
  usePageTitle(siteTitle('Import links'))
  const workspace = useActiveWorkspace()
  const domains = useDomains()
  if (!workspace) return <Spinner />
  const verified = (domains.data ?? []).filter((d) => d.status !== 'pending' && d.pointing).map((d) => ({ id: d.id, domain: d.domain }))
  return (
    <WorkspacePage workspace={workspace} title="Import links">
      <ImportCard key={workspace.id} domains={verified} baseHost={window.location.host} />
    </WorkspacePage>
  )
}

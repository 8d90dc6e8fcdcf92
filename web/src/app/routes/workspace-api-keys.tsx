import { Spinner } from '@/components/ui/spinner'
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card'
import { WorkspacePage } from '@/features/workspaces/components/workspace-page'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useActiveWorkspace } from '@/lib/workspace'

/** /workspace/api-keys: the workspace frame around its API keys (a key belongs to the workspace). */
export function WorkspaceApiKeysRoute() {
  usePageTitle(siteTitle('API keys'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="API keys">
      <ApiKeysCard />
    </WorkspacePage>
  )
}

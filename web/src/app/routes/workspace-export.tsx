import { Spinner } from '@/components/ui/spinner'
import { ExportCard } from '@/features/account/components/export-card'
import { WorkspacePage } from '@/features/workspaces/components/workspace-page'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useActiveWorkspace } from '@/lib/workspace'

/** /workspace/export: the workspace frame around the data export (it exports the active workspace). */
export function WorkspaceExportRoute() {
  usePageTitle(siteTitle('Export'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Export">
      <ExportCard />
    </WorkspacePage>
  )
}

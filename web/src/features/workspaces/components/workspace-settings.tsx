import { Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { NameDialog } from '@/components/name-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { toast } from '@/lib/use-toast'
import { can, type ActiveWorkspace } from '@/lib/workspace'
import { useDeleteWorkspace, useRenameWorkspace, useWorkspaces } from '../api/workspaces'
import { failed } from '../lib/members'

/** Rename (owners and admins) and delete (owners; never the personal workspace). */
export function WorkspaceSettings({ workspace }: { workspace: ActiveWorkspace }) {
  const personal = useWorkspaces().data?.find((w) => w.id === workspace.id)?.personal ?? true
  const rename = useRenameWorkspace()
  const del = useDeleteWorkspace()
  const [renaming, setRenaming] = useState(false)
  const mayRename = can(workspace.role, 'manageMembers')
  const mayDelete = can(workspace.role, 'own') && !personal
  if (!mayRename && !mayDelete) return null

  function deleteWorkspace() {
    if (!window.confirm(`Delete ${workspace.name}? Its codes stop redirecting and nobody can open them again. This cannot be undone.`)) return
    del.mutate(workspace.id, {
      onSuccess: () => toast({ title: 'Workspace deleted', description: `${workspace.name} is gone.` }),
      onError: failed('Could not delete the workspace'),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Workspace</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {mayRename && (
          <Button variant="outline" onClick={() => setRenaming(true)}>
            <Pencil aria-hidden="true" /> Rename workspace
          </Button>
        )}
        {mayDelete && (
          <Button variant="outline" className="text-red-600 hover:bg-red-50 hover:text-red-700" onClick={deleteWorkspace} disabled={del.isPending}>
            <Trash2 aria-hidden="true" /> Delete workspace
          </Button>
        )}
      </CardContent>
      <NameDialog
        open={renaming}
        onOpenChange={setRenaming}
        title="Rename workspace"
        label="Workspace name"
        initial={workspace.name}
        submitLabel="Save"
        onSubmit={(name) => rename.mutateAsync({ id: workspace.id, name })}
      />
    </Card>
  )
}

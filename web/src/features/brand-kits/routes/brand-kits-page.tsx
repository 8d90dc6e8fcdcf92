import { Pencil, Star, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { NameDialog } from '@/components/name-dialog'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { can, useActiveWorkspace, type ActiveWorkspace } from '@/lib/workspace'
import { WorkspacePage } from '@/features/workspaces'
import { useBrandKits, useDeleteBrandKit, useUpdateBrandKit, type BrandKit } from '../api/brand-kits'
import { KitSwatch } from '../components/kit-swatch'

const failed = (title: string) => (error: unknown) =>
  toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })

/** /workspace/brand-kits: the workspace's saved designs; editors rename, delete and choose the default. */
export function BrandKitsPage() {
  usePageTitle(siteTitle('Brand kits'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Brand kits">
      <KitList key={workspace.id} workspace={workspace} />
    </WorkspacePage>
  )
}

function KitList({ workspace }: { workspace: ActiveWorkspace }) {
  const kits = useBrandKits()
  const editor = can(workspace.role, 'editCodes')
  const heading = useFocusAfterRemoval(kits.data?.length ?? 0)
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="focus:outline-none">
          Saved designs
        </CardTitle>
        <CardDescription>
          A brand kit keeps colours, shapes, frame and logo, so everyone in {workspace.name} styles a code in one step: in the
          generator, when restyling a code, in bulk (a brandKit column) and through the API. The default kit is preselected in the
          generator.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!editor && <Alert>You can use the kits of {workspace.name}; editors and admins change them.</Alert>}
        {kits.isPending && <Spinner label="Loading brand kits..." />}
        {kits.isError && <Alert variant="destructive">{serverMessage(kits.error) ?? 'Failed to load the brand kits.'}</Alert>}
        {kits.data?.length === 0 && (
          <p className="text-sm text-slate-600">
            No brand kits yet. Style a code in the{' '}
            <Link to="/dashboard?create=true" className="font-medium text-primary hover:underline">
              generator
            </Link>{' '}
            and press Save as brand kit.
          </p>
        )}
        {kits.data && kits.data.length > 0 && (
          <ul className="grid divide-y divide-slate-100" aria-label="Brand kits">
            {kits.data.map((kit) => (
              <KitRow key={kit.id} kit={kit} editor={editor} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function KitRow({ kit, editor }: { kit: BrandKit; editor: boolean }) {
  const [renaming, setRenaming] = useState(false)
  const update = useUpdateBrandKit()
  const remove = useDeleteBrandKit()
  const makeDefault = () =>
    update.mutate(
      { id: kit.id, isDefault: !kit.isDefault },
      {
        onSuccess: () => toast({ title: kit.isDefault ? 'No default brand kit' : `${kit.name} is the default brand kit` }),
        onError: failed('Could not change the default'),
      },
    )
  const deleteKit = () => {
    if (!window.confirm(`Delete the brand kit “${kit.name}”? Codes styled with it keep their style.`)) return
    remove.mutate(kit.id, { onSuccess: () => toast({ title: 'Brand kit deleted' }), onError: failed('Could not delete the brand kit') })
  }
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <KitSwatch kit={kit} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 break-words font-medium text-slate-900">
          {kit.name}
          {kit.isDefault && <Badge tone="violet">Default</Badge>}
        </p>
        <p className="text-xs text-slate-500">
          {String(kit.dotShape ?? 'square')} dots · {kit.fgColor} on {kit.bgColor}
          {kit.logoId !== null && ` · logo ${kit.logoFileName}`}
        </p>
      </div>
      {editor && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={makeDefault} disabled={update.isPending} aria-label={kit.isDefault ? `Unset default: ${kit.name}` : `Make default: ${kit.name}`}>
            <Star aria-hidden="true" /> {kit.isDefault ? 'Unset default' : 'Make default'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => setRenaming(true)} aria-label={`Rename ${kit.name}`}>
            <Pencil aria-hidden="true" /> Rename
          </Button>
          <Button variant="outline" size="sm" onClick={deleteKit} disabled={remove.isPending} aria-label={`Delete ${kit.name}`}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        </div>
      )}
      <NameDialog
        open={renaming}
        onOpenChange={setRenaming}
        title="Rename brand kit"
        label="Kit name"
        initial={kit.name}
        submitLabel="Rename"
        onSubmit={(name) => update.mutateAsync({ id: kit.id, name }).then(() => toast({ title: 'Brand kit renamed' }))}
      />
    </li>
  )
}

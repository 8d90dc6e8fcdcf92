import { Folder as FolderIcon, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { NameDialog } from '@/components/name-dialog'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast, toastFailure } from '@/lib/use-toast'
import { useDeleteFolder, useDeleteTag, useFolders, useSaveFolder, useSaveTag, useTags } from '../api/organise'
import type { Folder, Tag } from '../api/types'
import { TagColorPicker, TagDot, tagColors } from './tag-colors'

type Editing = { kind: 'tag'; tag?: Tag } | { kind: 'folder'; folder?: Folder } | null

/** The workspace's tags (with colours) and folders: create, rename, delete. */
export function OrganiseDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const tags = useTags()
  const folders = useFolders()
  const saveTag = useSaveTag()
  const saveFolder = useSaveFolder()
  const deleteTag = useDeleteTag()
  const deleteFolder = useDeleteFolder()
  const [editing, setEditing] = useState<Editing>(null)
  const [color, setColor] = useState(tagColors[0].value)

  const editTag = (tag?: Tag) => {
    setColor(tag?.color ?? tagColors[0].value)
    setEditing({ kind: 'tag', tag })
  }

  const removeTag = (tag: Tag) => {
    if (!window.confirm(`Delete the tag ${tag.name}? It comes off every code; the codes stay.`)) return
    deleteTag.mutate(tag.id, { onSuccess: () => toast({ title: 'Tag deleted' }), onError: toastFailure('Could not delete the tag') })
  }

  const removeFolder = (folder: Folder) => {
    if (!window.confirm(`Delete the folder ${folder.name}? Its codes stay, outside any folder.`)) return
    deleteFolder.mutate(folder.id, { onSuccess: () => toast({ title: 'Folder deleted' }), onError: toastFailure('Could not delete the folder') })
  }

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Tags and folders</DialogTitle>
            <DialogDescription>Everyone in the workspace shares them. Put codes in a folder and tag them from each card.</DialogDescription>
          </DialogHeader>

          <section aria-labelledby="organise-tags" className="grid gap-2">
            <div className="flex items-center justify-between">
              <h3 id="organise-tags" className="font-semibold text-slate-900">
                Tags
              </h3>
              <Button size="sm" variant="outline" onClick={() => editTag()}>
                <Plus aria-hidden="true" /> New tag
              </Button>
            </div>
            {tags.data?.length === 0 && <p className="text-sm text-slate-600">No tags yet.</p>}
            <ul className="grid gap-1" aria-label="Tags">
              {tags.data?.map((tag) => (
                <li key={tag.id} className="flex items-center gap-2 rounded-lg border border-slate-200 py-1 pl-3 pr-1">
                  <TagDot color={tag.color} />
                  <span className="min-w-0 flex-1 truncate text-sm">{tag.name}</span>
                  <Button size="sm" variant="ghost" className="w-8 px-0" aria-label={`Edit tag ${tag.name}`} onClick={() => editTag(tag)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" className="w-8 px-0 text-red-600" aria-label={`Delete tag ${tag.name}`} onClick={() => removeTag(tag)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="organise-folders" className="grid gap-2">
            <div className="flex items-center justify-between">
              <h3 id="organise-folders" className="font-semibold text-slate-900">
                Folders
              </h3>
              <Button size="sm" variant="outline" onClick={() => setEditing({ kind: 'folder' })}>
                <Plus aria-hidden="true" /> New folder
              </Button>
            </div>
            {folders.data?.length === 0 && <p className="text-sm text-slate-600">No folders yet.</p>}
            <ul className="grid gap-1" aria-label="Folders">
              {folders.data?.map((folder) => (
                <li key={folder.id} className="flex items-center gap-2 rounded-lg border border-slate-200 py-1 pl-3 pr-1">
                  <FolderIcon aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                  <span className="min-w-0 flex-1 truncate text-sm">{folder.name}</span>
                  <Button size="sm" variant="ghost" className="w-8 px-0" aria-label={`Rename folder ${folder.name}`} onClick={() => setEditing({ kind: 'folder', folder })}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" className="w-8 px-0 text-red-600" aria-label={`Delete folder ${folder.name}`} onClick={() => removeFolder(folder)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        </DialogContent>
      </Dialog>

      <NameDialog
        open={editing?.kind === 'tag'}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing?.kind === 'tag' && editing.tag ? 'Edit tag' : 'New tag'}
        label="Tag name"
        initial={editing?.kind === 'tag' ? editing.tag?.name : ''}
        submitLabel="Save tag"
        onSubmit={(name) => saveTag.mutateAsync({ id: editing?.kind === 'tag' ? editing.tag?.id : undefined, name, color })}
      >
        <TagColorPicker value={color} onChange={setColor} />
      </NameDialog>
      <NameDialog
        open={editing?.kind === 'folder'}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing?.kind === 'folder' && editing.folder ? 'Rename folder' : 'New folder'}
        label="Folder name"
        initial={editing?.kind === 'folder' ? editing.folder?.name : ''}
        submitLabel="Save folder"
        onSubmit={(name) => saveFolder.mutateAsync({ id: editing?.kind === 'folder' ? editing.folder?.id : undefined, name })}
      />
    </>
  )
}

import { Folder as FolderIcon, Tag as TagIcon } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { toast, toastFailure } from '@/lib/use-toast'
import { useCan } from '@/lib/workspace'
import { FolderNotSaved, useFolders, useOrganiseCode, useTags } from '../api/organise'
import { tagIdsOf, type SavedCode, type Tag } from '../api/types'
import { TagDot } from './tag-colors'

/**
 * A card's tags and folder as badges, with the names and colours the
 * workspace has now; editors also get the button that changes them (not on
 * the paused view, whose cards offer Resume, View and Delete only).
 */
export function CodeLabels({ code, editable }: { code: SavedCode; editable: boolean }) {
  const tags = useTags().data
  const folders = useFolders().data
  const mayEdit = useCan('editCodes') && editable
  const [open, setOpen] = useState(false)
  const ids = tagIdsOf(code)
  const shown = ids.map((id) => tags?.find((t) => t.id === id) ?? refOf(code, id)).filter((t): t is Tag => t !== undefined)
  const folder = code.folderId != null ? folders?.find((f) => f.id === code.folderId) : undefined
  const empty = shown.length === 0 && !folder
  if (!mayEdit && empty) return null

  return (
    <div className="flex flex-wrap items-center gap-1.5 px-4 pb-3" data-testid="code-labels">
      {folder && (
        <Badge className="max-w-full font-medium">
          <FolderIcon aria-hidden="true" />
          <span className="sr-only">Folder: </span>
          <span className="truncate">{folder.name}</span>
        </Badge>
      )}
      {shown.map((tag) => (
        <Badge key={tag.id} className="max-w-full border border-slate-200 bg-white font-medium">
          <TagDot color={tag.color} />
          <span className="sr-only">Tag: </span>
          <span className="truncate">{tag.name}</span>
        </Badge>
      ))}
      {mayEdit && (
        <Button size="sm" variant="ghost" className="h-6 px-1.5 text-xs text-slate-500" aria-label={empty ? `Add tags to ${code.name}` : `Edit tags and folder of ${code.name}`} onClick={() => setOpen(true)}>
          <TagIcon aria-hidden="true" className="!size-3.5" />
          {empty ? 'Add tags' : 'Edit'}
        </Button>
      )}
      {mayEdit && <CodeLabelsDialog code={code} open={open} onOpenChange={setOpen} />}
    </div>
  )
}

/** A tag the record names that the tag list does not (yet) hold. */
function refOf(code: SavedCode, id: number): Tag | undefined {
  const ref = code.tags?.find((t) => typeof t !== 'number' && t.id === id)
  return ref && typeof ref !== 'number' && ref.name ? { id, name: ref.name, color: ref.color ?? '#475569' } : undefined
}

function CodeLabelsDialog({ code, open, onOpenChange }: { code: SavedCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">{open && <CodeLabelsForm code={code} onClose={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  )
}

function CodeLabelsForm({ code, onClose }: { code: SavedCode; onClose: () => void }) {
  const id = useId()
  const tags = useTags().data ?? []
  const folders = useFolders().data ?? []
  const organise = useOrganiseCode()
  const before = tagIdsOf(code)
  const [picked, setPicked] = useState(() => new Set(before))
  const [folder, setFolder] = useState(code.folderId != null ? String(code.folderId) : '')

  function submit(event: FormEvent) {
    event.preventDefault()
    const tagIds = [...picked].sort((a, b) => a - b)
    const sameTags = tagIds.length === before.length && tagIds.every((t) => before.includes(t))
    const folderId = folder ? Number(folder) : null
    organise.mutate(
      { code, tagIds: sameTags ? undefined : tagIds, folderId: folderId === (code.folderId ?? null) ? undefined : folderId },
      {
        onSuccess: () => {
          toast({ title: 'Saved', description: `Tags and folder of ${code.name} updated.` })
          onClose()
        },
        // The card shows what was saved (the list is read again): the toast says what was not.
        onError: (error) =>
          error instanceof FolderNotSaved ? toastFailure('Tags saved, the folder was not')(error.reason) : toastFailure('Could not save')(error),
      },
    )
  }

  return (
    <form className="grid gap-4" onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>Tags and folder</DialogTitle>
        <DialogDescription className="break-words">{code.name}</DialogDescription>
      </DialogHeader>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">Tags</legend>
        {tags.length === 0 && <p className="text-sm text-slate-600">No tags yet: create them with Tags and folders above the list.</p>}
        {tags.map((tag) => (
          <label key={tag.id} className="flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-[var(--color-primary)]"
              checked={picked.has(tag.id)}
              onChange={(e) =>
                setPicked((prev) => {
                  const next = new Set(prev)
                  if (e.target.checked) next.add(tag.id)
                  else next.delete(tag.id)
                  return next
                })
              }
            />
            <TagDot color={tag.color} />
            {tag.name}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-folder`}>Folder</Label>
        <NativeSelect id={`${id}-folder`} value={folder} onChange={(e) => setFolder(e.target.value)}>
          <option value="">No folder</option>
          {folders.map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={organise.isPending}>
          {organise.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}

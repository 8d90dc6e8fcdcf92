import { Check, Pencil, X } from 'lucide-react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/**
 * A code's name with the pencil to rename it (spec 01 §4): Enter or the tick
 * saves, Escape or the cross cancels; an unchanged or blank name just closes.
 * Closing hands focus back to the pencil (the box it had is gone); a refused
 * name is toasted by the rename's mutation. Without onRename (a viewer) the
 * name shows alone.
 */
export function CodeName({ id, name, onRename }: { id?: string; name: string; onRename?: (name: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null)
  const [closed, setClosed] = useState(false)
  const pencil = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (closed && draft === null) pencil.current?.focus()
  }, [closed, draft])

  if (draft === null) {
    return (
      <div className="flex min-w-0 items-center gap-1">
        <h3 id={id} className="truncate font-semibold text-slate-900" title={name}>
          {name}
        </h3>
        {onRename && (
          <Button variant="ghost" size="icon" className="size-7 shrink-0 text-slate-400 hover:text-slate-700" aria-label={`Rename ${name}`} ref={pencil} onClick={() => setDraft(name)}>
            <Pencil aria-hidden="true" className="!size-3.5" />
          </Button>
        )}
      </div>
    )
  }

  const close = () => {
    setDraft(null)
    setClosed(true)
  }
  const save = () => {
    const next = draft.trim()
    if (next && next !== name) onRename?.(next)
    close()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      save()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close()
    }
  }

  return (
    <div className="flex items-center gap-1">
      <Input aria-label="QR code name" className="h-8" maxLength={100} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={onKeyDown} />
      <Button variant="ghost" size="icon" className="size-8 shrink-0 text-emerald-600" aria-label="Save name" onClick={save}>
        <Check aria-hidden="true" />
      </Button>
      <Button variant="ghost" size="icon" className="size-8 shrink-0 text-slate-500" aria-label="Cancel rename" onClick={close}>
        <X aria-hidden="true" />
      </Button>
    </div>
  )
}

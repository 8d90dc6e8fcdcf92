import { Copy, Link2, Lock, Trash2 } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { failureMessage, fieldMessage, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { useCan } from '@/lib/workspace'
import { useFolders, useTags } from '@/features/dashboard'
import { useCreateShareLink, useRevokeShareLink, useShareLinks, type ShareLink, type ShareScope } from '../api/share-links'
import { formatDate } from '@/lib/dates'

export interface ShareDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The code the analytics show, or 'all' for the workspace's. */
  code: { id: number; name: string } | 'all'
}

const expiries = [
  { value: '', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
]

/** The scope select's value for a scope, and back. */
const scopeValue = (s: ShareScope) => ('codeId' in s ? `code:${s.codeId}` : 'tagId' in s ? `tag:${s.tagId}` : 'folderId' in s ? `folder:${s.folderId}` : 'workspace')

function parseScope(v: string): ShareScope {
  const [kind, id] = v.split(':')
  if (kind === 'code') return { codeId: Number(id) }
  if (kind === 'tag') return { tagId: Number(id) }
  if (kind === 'folder') return { folderId: Number(id) }
  return { workspace: true }
}

/** A link's scope in words. */
function scopeLabel(l: ShareLink) {
  if (l.scope.codeId) return `Code ${l.scopeName}`
  if (l.scope.tagId) return `Tag ${l.scopeName}`
  if (l.scope.folderId) return `Folder ${l.scopeName}`
  return 'All dynamic codes'
}

/**
 * Share links of the analytics: a read-only page anyone with the link opens
 * without signing in. Editors and up make and revoke them; every member sees them.
 */
export function ShareDialog({ open, onOpenChange, code }: ShareDialogProps) {
  const mayEdit = useCan('editCodes')
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Share analytics</DialogTitle>
          <DialogDescription>
            Anyone with the link sees the scans, countries, devices and referrers without signing in. Referrers show only their site, and countries
            or referrers with fewer than 5 scans are grouped as Other, so no single person can be picked out.
          </DialogDescription>
        </DialogHeader>
        {mayEdit ? <CreateForm code={code} /> : <p className="text-sm text-slate-600">Editors, admins and owners make and revoke share links; the workspace's links are listed below.</p>}
        <LinkList mayEdit={mayEdit} />
      </DialogContent>
    </Dialog>
  )
}

function CreateForm({ code }: { code: ShareDialogProps['code'] }) {
  const id = useId()
  const tags = useTags()
  const folders = useFolders()
  const create = useCreateShareLink()
  const [scope, setScope] = useState(scopeValue(code === 'all' ? { workspace: true } : { codeId: code.id }))
  const [expiry, setExpiry] = useState('30')
  const [password, setPassword] = useState('')
  const [made, setMade] = useState<ShareLink>()

  function submit(e: FormEvent) {
    e.preventDefault()
    const body: { scope: ShareScope; expiresAt?: string; password?: string } = { scope: parseScope(scope) }
    if (expiry) body.expiresAt = new Date(Date.now() + Number(expiry) * 86_400_000).toISOString()
    if (password) body.password = password
    create.mutate(body, {
      onSuccess: (link) => {
        setMade(link)
        setPassword('')
      },
    })
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url)
      toast({ title: 'Copied!', description: 'Share link copied to the clipboard' })
    } catch {
      toast({ title: 'Copy it by hand', description: 'The browser did not allow copying.', variant: 'destructive' })
    }
  }

  const passwordError = fieldMessage(create.error, 'password')
  const otherError = create.error && !passwordError ? failureMessage(create.error, 'The link could not be made. Please try again.') : undefined
  return (
    <form onSubmit={submit} className="grid gap-4 rounded-xl border border-slate-200 p-4" aria-label="New share link">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-scope`}>What to share</Label>
        <NativeSelect id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value)}>
          {code !== 'all' && <option value={`code:${code.id}`}>This code: {code.name}</option>}
          <option value="workspace">All dynamic codes</option>
          {tags.data?.map((t) => (
            <option key={`t${t.id}`} value={`tag:${t.id}`}>
              Tag: {t.name}
            </option>
          ))}
          {folders.data?.map((f) => (
            <option key={`f${f.id}`} value={`folder:${f.id}`}>
              Folder: {f.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-expiry`}>Link expires</Label>
          <NativeSelect id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {expiries.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-password`}>Password (optional)</Label>
          <Input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? `${id}-password-error` : undefined}
          />
          <FieldError id={`${id}-password-error`}>{passwordError}</FieldError>
        </div>
      </div>
      {otherError && (
        <p role="alert" className="text-sm text-red-700">
          {otherError}
        </p>
      )}
      <div>
        <Button type="submit" disabled={create.isPending}>
          <Link2 aria-hidden="true" /> {create.isPending ? 'Making the link…' : 'Create link'}
        </Button>
      </div>
      {made?.url && (
        <div className="grid gap-2 rounded-lg bg-emerald-50 p-3" role="status">
          <Label htmlFor={`${id}-url`}>Your link: copy it now, it is shown only once</Label>
          <div className="flex gap-2">
            <Input id={`${id}-url`} readOnly value={made.url} onFocus={(e) => e.target.select()} className="font-mono text-xs" />
            <Button type="button" variant="outline" onClick={() => void copy(made.url as string)}>
              <Copy aria-hidden="true" /> Copy link
            </Button>
          </div>
        </div>
      )}
    </form>
  )
}

function LinkList({ mayEdit }: { mayEdit: boolean }) {
  const links = useShareLinks()
  const revoke = useRevokeShareLink()

  function revokeLink(l: ShareLink) {
    if (!window.confirm(`Revoke the link …${l.tokenHint}? Anyone opening it will see that it is no longer available.`)) return
    revoke.mutate(l.id, {
      onSuccess: () => toast({ title: 'Share link revoked' }),
      onError: (error) => toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to revoke the link', variant: 'destructive' }),
    })
  }

  return (
    <section className="grid gap-2" aria-labelledby="share-links-heading">
      <h3 id="share-links-heading" className="font-semibold text-slate-900">
        Share links of this workspace
      </h3>
      {links.isLoading ? (
        <Spinner label="Loading share links..." />
      ) : links.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load share links
        </p>
      ) : links.data?.length === 0 ? (
        <p className="text-sm text-slate-600">No share links yet.</p>
      ) : (
        <ul className="grid gap-2">
          {links.data?.map((l) => (
            <li key={l.id} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2">
              <div className="min-w-0 text-sm">
                <p className="truncate font-medium text-slate-900">{scopeLabel(l)}</p>
                <p className="text-xs text-slate-600">
                  <span className="font-mono">/s/{l.tokenHint}…</span> · made {formatDate(l.createdAt)}
                  {l.expiresAt && ` · ${l.expired ? 'expired' : 'expires'} ${formatDate(l.expiresAt)}`}
                  {l.protected && (
                    <>
                      {' · '}
                      <Lock className="inline size-3" aria-hidden="true" /> password
                    </>
                  )}
                </p>
              </div>
              {mayEdit && (
                <Button size="sm" variant="ghost" aria-label={`Revoke the link ${scopeLabel(l)} …${l.tokenHint}`} disabled={revoke.isPending} onClick={() => revokeLink(l)}>
                  <Trash2 aria-hidden="true" /> Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

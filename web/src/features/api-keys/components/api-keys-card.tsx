import { Copy, KeyRound, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { ListStatus } from '@/components/named-list'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { useActiveWorkspace, useCan } from '@/lib/workspace'
import { useFolders } from '@/features/dashboard'
import { useApiKeys, useRevokeApiKey, type ApiKey } from '../api/api-keys'
import { CreateKeyForm } from './create-key-form'
import { formatDate } from '@/lib/dates'

/**
 * The account's personal API keys for the public API: create (the whole key
 * is shown once), list masked, revoke. Rendered by the account settings page.
 */
export function ApiKeysCard() {
  const keys = useApiKeys()
  const folders = useFolders()
  const revoke = useRevokeApiKey()
  const [created, setCreated] = useState<ApiKey>()
  const workspace = useActiveWorkspace()
  // Owners and admins manage the workspace's keys; the others see them only.
  const mayManage = useCan('manageKeys')
  const heading = useFocusAfterRemoval(keys.data?.length ?? 0)

  function revokeKey(key: ApiKey) {
    if (!window.confirm(`Revoke ${key.name}? Programs using it stop working at once.`)) return
    revoke.mutate(key.id, {
      onSuccess: () => {
        if (created?.id === key.id) setCreated(undefined)
        toast({ title: 'API key revoked', description: `${key.name} no longer works.` })
      },
      onError: (error) => toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to revoke API key', variant: 'destructive' }),
    })
  }

  async function copy(key: string) {
    await navigator.clipboard.writeText(key)
    toast({ title: 'Copied!', description: 'API key copied to clipboard' })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="flex items-center gap-2 focus:outline-none">
          <KeyRound className="size-5" aria-hidden="true" /> API keys
        </CardTitle>
        <CardDescription>
          Create codes from your own systems with the <Link to="/docs/api" className="text-primary underline">Squarely API</Link>. A key belongs to
          the workspace {workspace?.name} and acts in it with the current role of the member who created it, at most an editor's; it stops
          working if they leave. Keep it secret.
          {!mayManage && ' Only its owners and admins create and revoke keys.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mayManage && <CreateKeyForm onCreated={setCreated} />}

        {created?.key && (
          <Alert className="min-w-0">
            <div className="grid min-w-0 flex-1 gap-2">
              <p className="font-medium">Copy your new key now: it will not be shown again.</p>
              <div className="flex min-w-0 items-center gap-2">
                <code data-testid="new-api-key" className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 font-mono text-xs">
                  {created.key}
                </code>
                <Button type="button" size="sm" variant="outline" onClick={() => copy(created.key as string)}>
                  <Copy aria-hidden="true" /> Copy
                </Button>
              </div>
            </div>
          </Alert>
        )}

        <ListStatus query={keys} failed="Failed to load API keys" empty="No API keys yet." />
        <ul className="grid gap-2">
          {keys.data?.map((key) => (
            <li key={key.id} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2">
              <div className="min-w-0">
                <p className="font-medium">{key.name}</p>
                <p className="font-mono text-xs text-slate-600">
                  {key.masked} · created {formatDate(key.createdAt)}
                </p>
                <p className="text-xs text-slate-600">Created by {key.createdBy.name || key.createdBy.email}</p>
                <p className="text-xs text-slate-600">{keyLimits(key, folders.data?.find((f) => f.id === key.folderId)?.name)}</p>
              </div>
              {mayManage && (
                <Button size="sm" variant="ghost" aria-label={`Revoke ${key.name}`} disabled={revoke.isPending} onClick={() => revokeKey(key)}>
                  <Trash2 aria-hidden="true" /> Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

/** A key's limits in words: its scopes, its folder, its expiry. */
function keyLimits(key: ApiKey, folderName?: string): string {
  const parts = [key.scopes ? `Scopes: ${key.scopes.join(', ')}` : 'All scopes']
  if (key.folderId) parts.push(`folder ${folderName ?? key.folderId} only`)
  if (key.expiresAt) {
    const at = new Date(key.expiresAt)
    parts.push(`${at.getTime() <= Date.now() ? 'expired' : 'expires'} ${formatDate(at)}`)
  }
  return parts.join(' · ')
}

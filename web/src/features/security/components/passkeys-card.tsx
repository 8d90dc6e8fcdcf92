import { KeyRound, Loader2, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { TextField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { passkeysSupported } from '@/lib/webauthn'
import { useDeletePasskey, usePasskeys, useRegisterPasskey } from '../api/passkeys'
import { formatDate } from '@/lib/dates'


/** Account settings: the account's passkeys, to sign in without a password or as the second factor. */
export function PasskeysCard() {
  const passkeys = usePasskeys()
  const add = useRegisterPasskey()
  const remove = useDeletePasskey()
  const [name, setName] = useState('')
  const heading = useFocusAfterRemoval(passkeys.data?.length ?? 0)
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="flex items-center gap-2 focus:outline-none">
          <KeyRound className="size-5" aria-hidden="true" /> Passkeys
        </CardTitle>
        <CardDescription>Sign in with your fingerprint, face or device PIN instead of a password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isLoading ? (
          <Spinner />
        ) : passkeys.data?.length ? (
          <ul aria-label="Passkeys" className="divide-y divide-slate-100">
            {passkeys.data.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-3 py-2">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{p.name}</p>
                  <p className="text-xs text-slate-500">
                    Added {formatDate(p.createdAt)}
                    {p.lastUsedAt ? `, last used ${formatDate(p.lastUsedAt)}` : ', never used'}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-label={`Remove ${p.name}`}
                  disabled={remove.isPending}
                  onClick={() => {
                    // The passkey stays on the device; only this site stops accepting it, which cannot be undone.
                    if (window.confirm(`Remove the passkey “${p.name}”? You will no longer be able to sign in with it.`)) remove.mutate(p.id)
                  }}
                >
                  <Trash2 aria-hidden="true" /> Remove
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No passkeys yet.</p>
        )}
        {passkeysSupported() ? (
          <form
            noValidate
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault()
              add.mutate(name, { onSuccess: () => setName('') })
            }}
          >
            <div className="min-w-48 flex-1">
              <TextField id="passkey-name" label="Passkey name" placeholder="My laptop" maxLength={64} value={name} onChange={(event) => setName(event.target.value)} />
            </div>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Add a passkey
            </Button>
          </form>
        ) : (
          <p className="text-sm text-slate-600">This browser cannot use passkeys.</p>
        )}
      </CardContent>
    </Card>
  )
}

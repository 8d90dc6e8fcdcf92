import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import { useFolders } from '@/features/dashboard'
import { apiScopes, folderScopes, useCreateApiKey, type ApiKey, type NewApiKey } from '../api/api-keys'

/**
 * A new key: its name, and optionally the scopes it may use, the one folder
 * it is limited to and when it expires. The server checks each and answers
 * by field; its messages show next to the field.
 */
export function CreateKeyForm({ onCreated }: { onCreated: (key: ApiKey) => void }) {
  const create = useCreateApiKey()
  const folders = useFolders()
  const [name, setName] = useState('')
  const [limited, setLimited] = useState(false)
  const [scopes, setScopes] = useState<string[]>(['codes:read'])
  const [folderId, setFolderId] = useState('')
  const [expires, setExpires] = useState('')
  const [missing, setMissing] = useState(false)
  const fields = create.error ? serverFieldErrors(create.error) : undefined
  const offered = folderId ? apiScopes.filter(({ scope }) => folderScopes.includes(scope)) : apiScopes

  function submit(event: FormEvent) {
    event.preventDefault()
    const trimmed = name.trim()
    setMissing(!trimmed)
    if (!trimmed) return
    const key: NewApiKey = { name: trimmed }
    if (limited) key.scopes = scopes.filter((s) => offered.some((o) => o.scope === s))
    if (folderId) key.folderId = Number(folderId)
    // The key works through the whole of the chosen day, in the user's time zone.
    if (expires) key.expiresAt = new Date(`${expires}T23:59:59`).toISOString()
    create.mutate(key, {
      onSuccess: (made) => {
        onCreated(made)
        setName('')
        setLimited(false)
        setFolderId('')
        setExpires('')
      },
    })
  }

  return (
    <form className="grid gap-3" onSubmit={submit} noValidate aria-label="Create an API key">
      <TextField
        id="api-key-name"
        label="Key name"
        placeholder="e.g. Online shop"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={missing ? 'Name is required' : fields?.name}
        maxLength={100}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Access</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="api-key-access" className="size-4 accent-primary" checked={!limited} onChange={() => setLimited(false)} />
          Everything the creator's role allows{folderId && ' in the folder'}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="api-key-access" className="size-4 accent-primary" checked={limited} onChange={() => setLimited(true)} />
          Only these scopes
        </label>
        {limited && (
          <div className="grid gap-1.5 pl-6 sm:grid-cols-2">
            {offered.map(({ scope, label }) => (
              <label key={scope} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-primary"
                  checked={scopes.includes(scope)}
                  onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
                />
                <span>
                  <code className="font-mono text-xs">{scope}</code> <span className="text-slate-600">{label}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        <FieldError id="api-key-scopes-error">{fields?.scopes}</FieldError>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="api-key-folder">Limit to a folder (optional)</Label>
          <NativeSelect
            id="api-key-folder"
            value={folderId}
            onChange={(e) => setFolderId(e.target.value)}
            aria-invalid={fields?.folderId ? true : undefined}
            aria-describedby={fields?.folderId ? 'api-key-folder-error' : undefined}
          >
            <option value="">Every code of the workspace</option>
            {folders.data?.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="api-key-folder-error">{fields?.folderId}</FieldError>
        </div>
        <TextField
          id="api-key-expires"
          label="Expires after (optional)"
          type="date"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          error={fields?.expiresAt}
        />
      </div>
      {create.error && !fields && <Alert variant="destructive">{serverMessage(create.error) ?? 'Failed to create API key'}</Alert>}
      <Button type="submit" className="justify-self-start" disabled={create.isPending}>
        {create.isPending ? 'Creating...' : 'Create key'}
      </Button>
    </form>
  )
}

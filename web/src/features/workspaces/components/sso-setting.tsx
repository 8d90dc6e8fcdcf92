import { KeyRound, Plus, Trash2 } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Textarea } from '@/components/ui/textarea'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import type { ActiveWorkspace, Role } from '@/lib/workspace'
import { useWorkspaces } from '../api/workspaces'
import { useSaveSSO, useSSO, type SSOSettings } from '../api/sso'

type Mapping = { group: string; role: Role }

/**
 * The owner's SAML single sign-on (issue 33): the addresses to give the
 * identity provider, its metadata (pasted or by URL), which IdP groups
 * get which role, and whether members must sign in through it. Shown in
 * team workspaces only.
 */
export function SSOSetting({ workspace }: { workspace: ActiveWorkspace }) {
  const listed = useWorkspaces().data?.find((w) => w.id === workspace.id)
  const sso = useSSO(workspace.id)
  if (!listed || listed.personal) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" aria-hidden="true" /> Single sign-on (SAML)
        </CardTitle>
        <CardDescription>
          Sign your team in to {workspace.name} through your identity provider (Okta, Entra ID, Google Workspace, …). Give it the addresses below, then
          paste its metadata.
        </CardDescription>
      </CardHeader>
      <CardContent>{sso.data ? <SSOForm key={sso.data.configured ? 'on' : 'off'} workspace={workspace} settings={sso.data} /> : null}</CardContent>
    </Card>
  )
}

function SSOForm({ workspace, settings }: { workspace: ActiveWorkspace; settings: SSOSettings }) {
  const id = useId()
  const save = useSaveSSO(workspace.id)
  const [source, setSource] = useState<'xml' | 'url'>(settings.idpMetadataUrl ? 'url' : 'xml')
  const [xml, setXml] = useState('')
  const [url, setUrl] = useState(settings.idpMetadataUrl ?? '')
  const [mapping, setMapping] = useState<Mapping[]>(Object.entries(settings.roleMapping).map(([group, role]) => ({ group, role })))
  const [defaultRole, setDefaultRole] = useState<Role>(settings.defaultRole ?? 'viewer')
  const [enforce, setEnforce] = useState(settings.enforceSso)
  const [idpInitiated, setIdpInitiated] = useState(settings.allowIdpInitiated)
  const errors = save.error ? serverFieldErrors(save.error) : undefined
  const general = save.error && !errors ? (serverMessage(save.error) ?? 'Could not save. Please try again.') : undefined
  const mappingError = errors && Object.entries(errors).find(([field]) => field.startsWith('roleMapping'))?.[1]

  function submit(event: FormEvent) {
    event.preventDefault()
    save.mutate(
      {
        // Without new XML, a saved workspace keeps its identity provider.
        ...(source === 'url' ? { idpMetadataUrl: url.trim() } : xml.trim() ? { idpMetadataXml: xml } : {}),
        roleMapping: Object.fromEntries(mapping.filter((m) => m.group.trim()).map((m) => [m.group.trim(), m.role])),
        defaultRole,
        enforceSso: enforce,
        allowIdpInitiated: idpInitiated,
      },
      { onSuccess: () => toast({ title: 'Single sign-on saved', description: `Members can sign in to ${workspace.name} through your identity provider.` }) },
    )
  }

  return (
    <div className="grid gap-6">
      <dl className="grid gap-2 text-sm">
        <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-700">Entity ID (metadata URL)</dt>
          <dd className="break-all font-mono text-slate-900">{settings.spEntityId}</dd>
        </div>
        <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-700">ACS URL (HTTP-POST)</dt>
          <dd className="break-all font-mono text-slate-900">{settings.acsUrl}</dd>
        </div>
        {settings.configured && (
          <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
            <dt className="font-medium text-slate-700">Identity provider</dt>
            <dd className="break-all text-slate-900">{settings.idpEntityId}</dd>
          </div>
        )}
      </dl>
      <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Single sign-on settings">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-900">Identity provider metadata</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-source`} checked={source === 'xml'} onChange={() => setSource('xml')} /> Paste the XML
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-source`} checked={source === 'url'} onChange={() => setSource('url')} /> Metadata URL
            </label>
          </div>
          {source === 'xml' ? (
            <div className="grid gap-2">
              <Label htmlFor={`${id}-xml`}>Metadata XML</Label>
              <Textarea
                id={`${id}-xml`}
                rows={6}
                className="font-mono"
                value={xml}
                onChange={(e) => setXml(e.target.value)}
                placeholder={settings.configured ? 'Leave empty to keep the identity provider; paste new metadata to change it' : '<md:EntityDescriptor …>'}
                aria-invalid={errors?.idpMetadataXml ? true : undefined}
                aria-describedby={errors?.idpMetadataXml ? `${id}-xml-error` : undefined}
              />
              <FieldError id={`${id}-xml-error`}>{errors?.idpMetadataXml}</FieldError>
            </div>
          ) : (
            <TextField
              id={`${id}-url`}
              label="Metadata URL"
              type="url"
              placeholder="https://idp.example.com/metadata"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              error={errors?.idpMetadataUrl}
            />
          )}
        </fieldset>

        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-900">Roles from the identity provider&apos;s groups</legend>
          {mapping.map((m, i) => (
            <div key={i} className="grid grid-cols-[1fr_auto_auto] items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor={`${id}-group-${i}`}>Group {i + 1}</Label>
                <Input
                  id={`${id}-group-${i}`}
                  value={m.group}
                  onChange={(e) => setMapping(mapping.map((x, j) => (j === i ? { ...x, group: e.target.value } : x)))}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`${id}-group-role-${i}`}>Role for group {i + 1}</Label>
                <NativeSelect
                  id={`${id}-group-role-${i}`}
                  value={m.role}
                  onChange={(e) => setMapping(mapping.map((x, j) => (j === i ? { ...x, role: e.target.value as Role } : x)))}
                >
                  <RoleOptions />
                </NativeSelect>
              </div>
              <Button type="button" variant="outline" aria-label={`Remove group ${i + 1}`} onClick={() => setMapping(mapping.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          ))}
          <FieldError id={`${id}-mapping-error`}>{mappingError}</FieldError>
          <Button type="button" variant="outline" className="justify-self-start" onClick={() => setMapping([...mapping, { group: '', role: 'editor' }])}>
            <Plus aria-hidden="true" /> Map a group
          </Button>
          <div className="grid gap-1 sm:max-w-xs">
            <Label htmlFor={`${id}-default`}>Everyone else joins as</Label>
            <NativeSelect id={`${id}-default`} value={defaultRole} onChange={(e) => setDefaultRole(e.target.value as Role)}>
              <RoleOptions />
            </NativeSelect>
          </div>
        </fieldset>

        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1" checked={enforce} onChange={(e) => setEnforce(e.target.checked)} />
          <span>
            Require single sign-on: members who did not sign in through the identity provider cannot use {workspace.name}. You stay able to, as the
            break-glass owner.
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1" checked={idpInitiated} onChange={(e) => setIdpInitiated(e.target.checked)} />
          <span>Allow sign-in started from the identity provider&apos;s dashboard (IdP-initiated)</span>
        </label>
        {general && <FieldError id={`${id}-error`}>{general}</FieldError>}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.isPending}>
            Save single sign-on
          </Button>
          {settings.configured && (
            <Button
              type="button"
              variant="outline"
              disabled={save.isPending}
              onClick={() => save.mutate(null, { onSuccess: () => toast({ title: 'Single sign-on removed' }) })}
            >
              Remove single sign-on
            </Button>
          )}
        </div>
      </form>
    </div>
  )
}

function RoleOptions() {
  return (
    <>
      <option value="viewer">Viewer</option>
      <option value="editor">Editor</option>
      <option value="admin">Admin</option>
    </>
  )
}

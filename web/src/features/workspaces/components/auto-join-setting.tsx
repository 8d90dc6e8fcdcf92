import { Building2 } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import type { ActiveWorkspace, Role } from '@/lib/workspace'
import { useAutoJoin, useWorkspaces } from '../api/workspaces'

/**
 * The owner's domain capture (issue 33): everyone who signs in with a
 * verified address at the company's domain joins the team with a role.
 * The domain must be proven by one of the workspace's custom domains.
 * Shown in team workspaces only.
 */
export function AutoJoinSetting({ workspace }: { workspace: ActiveWorkspace }) {
  const id = useId()
  const listed = useWorkspaces().data?.find((w) => w.id === workspace.id)
  const save = useAutoJoin()
  const [domain, setDomain] = useState('')
  const [role, setRole] = useState<Role>('editor')
  // Personal workspaces take in nobody.
  if (!listed || listed.personal) return null
  const current = listed.autoJoin ?? null
  const error = save.error ? (fieldMessage(save.error, 'domain') ?? serverMessage(save.error) ?? 'Could not save. Please try again.') : undefined

  function submit(event: FormEvent) {
    event.preventDefault()
    save.mutate(
      { id: workspace.id, autoJoin: { domain: domain.trim(), role } },
      { onSuccess: () => toast({ title: 'Domain capture on', description: `Verified addresses at ${domain.trim()} join ${workspace.name} when they sign in.` }) },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Building2 className="size-5" aria-hidden="true" /> Join by e-mail domain
        </CardTitle>
        <CardDescription>
          Everyone who signs in with a verified address at your company&apos;s domain joins {workspace.name}. Prove the domain first by verifying it, or a
          domain under it, in Custom domains.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {current ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm">
              Addresses at <strong>{current.domain}</strong> join as {current.role}.
            </p>
            <Button type="button" variant="outline" disabled={save.isPending} onClick={() => save.mutate({ id: workspace.id, autoJoin: null })}>
              Turn off
            </Button>
          </div>
        ) : (
          <form className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end" onSubmit={submit} noValidate>
            <TextField id={`${id}-domain`} label="E-mail domain" placeholder="example.com" value={domain} onChange={(e) => setDomain(e.target.value)} error={error} />
            <div className="grid gap-2">
              <Label htmlFor={`${id}-role`}>Joins as</Label>
              <NativeSelect id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                <option value="viewer">Viewer</option>
                <option value="editor">Editor</option>
                <option value="admin">Admin</option>
              </NativeSelect>
            </div>
            <Button type="submit" disabled={save.isPending}>
              Turn on
            </Button>
          </form>
        )}
        {current && save.error && <FieldError id={`${id}-error`}>{error}</FieldError>}
      </CardContent>
    </Card>
  )
}

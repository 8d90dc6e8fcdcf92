import { BellRing, LogOut, Mail, Pencil, ShieldCheck, Trash2, UserPlus } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { NameDialog } from '@/components/name-dialog'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { can, roleLabels, roles, useActiveWorkspace, type ActiveWorkspace, type Role } from '@/lib/workspace'
import {
  useAlertEmails,
  useChangeRole,
  useDeleteWorkspace,
  useInvitations,
  useInvite,
  useMembers,
  useRemoveMember,
  useRenameWorkspace,
  useRequire2FA,
  useRevokeInvitation,
  useWorkspaces,
  type Member,
} from '../api/workspaces'
import { WorkspacePage } from '../components/workspace-page'

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

function formatDate(iso: string | undefined) {
  const date = new Date(iso ?? '')
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date)
}

const failed = (title: string) => (error: unknown) =>
  toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })

/** The roles the caller may hand out: only owners make owners. */
function assignable(myRole: Role): Role[] {
  return myRole === 'owner' ? roles : roles.filter((r) => r !== 'owner')
}

/** /workspace/members: who is in the active workspace and with what role; managers invite, change roles and remove. */
export function MembersPage() {
  usePageTitle(siteTitle('Members'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Members">
      {/* Keyed by workspace: a switch starts its forms afresh. */}
      <Members key={workspace.id} workspace={workspace} />
    </WorkspacePage>
  )
}

function Members({ workspace }: { workspace: ActiveWorkspace }) {
  const manager = can(workspace.role, 'manageMembers')
  return (
    <div className="grid gap-6">
      {manager && <InviteCard workspace={workspace} />}
      <MemberList workspace={workspace} />
      {manager && <InvitationList workspace={workspace} />}
      {can(workspace.role, 'own') && <TwoFactorSetting workspace={workspace} />}
      {manager && <AlertEmailSetting workspace={workspace} />}
      <WorkspaceSettings workspace={workspace} />
    </div>
  )
}

function InviteCard({ workspace }: { workspace: ActiveWorkspace }) {
  const id = useId()
  const invite = useInvite(workspace.id)
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [error, setError] = useState<string>()

  function submit(event: FormEvent) {
    event.preventDefault()
    const address = email.trim()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError('Please enter a valid email')
      return
    }
    setError(undefined)
    invite.mutate(
      { email: address, role },
      {
        onSuccess: () => {
          setEmail('')
          toast({ title: 'Invitation sent', description: `We emailed ${address} a link to join as ${roleLabels[role].toLowerCase()}.` })
        },
        onError: (failure) => setError(fieldMessage(failure, 'email') ?? serverMessage(failure) ?? 'Failed to send the invitation. Please try again.'),
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserPlus className="size-5" aria-hidden="true" /> Invite someone
        </CardTitle>
        <CardDescription>We email them a link to join {workspace.name}. It works once, for 7 days, and only for that address.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-end" onSubmit={submit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-email`}>Email</Label>
            <Input
              id={`${id}-email`}
              type="email"
              autoComplete="off"
              placeholder="colleague@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-role`}>Role</Label>
            <NativeSelect id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {assignable(workspace.role).map((r) => (
                <option key={r} value={r}>
                  {roleLabels[r]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" disabled={invite.isPending}>
            <Mail aria-hidden="true" />
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
          {error && (
            <div className="sm:col-span-3">
              <FieldError id={`${id}-error`}>{error}</FieldError>
            </div>
          )}
        </form>
      </CardContent>
    </Card>
  )
}

function MemberList({ workspace }: { workspace: ActiveWorkspace }) {
  const members = useMembers(workspace.id)
  const me = useUser().data?.id
  const changeRole = useChangeRole(workspace.id)
  const remove = useRemoveMember(workspace.id)
  const navigate = useNavigate()
  // Nobody leaves their personal workspace (the server refuses it too).
  const personal = useWorkspaces().data?.find((w) => w.id === workspace.id)?.personal ?? true
  // Admins manage everyone but owners; owners manage everyone.
  const mayManage = (m: Member) => can(workspace.role, 'manageMembers') && (m.role !== 'owner' || workspace.role === 'owner')

  function removeMember(m: Member) {
    if (!window.confirm(`Remove ${m.email} from ${workspace.name}? They lose access to its codes at once.`)) return
    remove.mutate(m.userId, {
      onSuccess: () => toast({ title: 'Member removed', description: `${m.email} no longer has access.` }),
      onError: failed('Could not remove member'),
    })
  }

  function leave(m: Member) {
    if (!window.confirm(`Leave ${workspace.name}? You lose access to its codes until someone invites you again.`)) return
    remove.mutate(m.userId, {
      onSuccess: () => {
        toast({ title: 'You left the workspace', description: `You are no longer a member of ${workspace.name}.` })
        navigate('/dashboard')
      },
      onError: failed('Could not leave the workspace'),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>People</CardTitle>
        <CardDescription>Owners can do everything; admins manage members and codes; editors manage codes; viewers only look.</CardDescription>
      </CardHeader>
      <CardContent>
        {members.isPending && <Spinner label="Loading members..." />}
        {members.isError && <Alert variant="destructive">{serverMessage(members.error) ?? 'Failed to load the members.'}</Alert>}
        <ul className="grid divide-y divide-slate-100" aria-label="Members">
          {members.data?.map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="break-all font-medium text-slate-900">
                  {m.email}
                  {m.userId === me && <span className="font-normal text-slate-500"> (you)</span>}
                </p>
                <p className="text-xs text-slate-500">Joined {formatDate(m.joinedAt)}</p>
              </div>
              {m.userId !== me && mayManage(m) ? (
                <NativeSelect
                  aria-label={`Role of ${m.email}`}
                  value={m.role}
                  disabled={changeRole.isPending}
                  onChange={(e) => {
                    const role = e.target.value as Role
                    changeRole.mutate(
                      { userId: m.userId, role },
                      { onSuccess: () => toast({ title: 'Role changed', description: `${m.email} is now ${roleLabels[role].toLowerCase()}.` }), onError: failed('Could not change the role') },
                    )
                  }}
                >
                  {/* An owner seen by an admin cannot get here; the current role always shows. */}
                  {assignable(workspace.role).map((r) => (
                    <option key={r} value={r}>
                      {roleLabels[r]}
                    </option>
                  ))}
                </NativeSelect>
              ) : (
                <Badge tone={m.role === 'owner' ? 'violet' : 'neutral'}>{roleLabels[m.role]}</Badge>
              )}
              {m.userId === me ? (
                !personal && (
                  <Button size="sm" variant="ghost" onClick={() => leave(m)} disabled={remove.isPending}>
                    <LogOut aria-hidden="true" /> Leave
                  </Button>
                )
              ) : (
                mayManage(m) && (
                  <Button size="sm" variant="ghost" className="text-red-600 hover:bg-red-50 hover:text-red-700" aria-label={`Remove ${m.email}`} onClick={() => removeMember(m)} disabled={remove.isPending}>
                    <Trash2 aria-hidden="true" /> Remove
                  </Button>
                )
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function InvitationList({ workspace }: { workspace: ActiveWorkspace }) {
  const invitations = useInvitations(workspace.id, true)
  const revoke = useRevokeInvitation(workspace.id)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
        <CardDescription>Links sent and not yet used. Revoking one makes its link stop working.</CardDescription>
      </CardHeader>
      <CardContent>
        {invitations.isPending && <Spinner label="Loading invitations..." />}
        {invitations.isError && <Alert variant="destructive">{serverMessage(invitations.error) ?? 'Failed to load the invitations.'}</Alert>}
        {invitations.data?.length === 0 && <p className="text-sm text-slate-600">No pending invitations.</p>}
        <ul className="grid divide-y divide-slate-100" aria-label="Pending invitations">
          {invitations.data?.map((inv) => (
            <li key={inv.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="break-all font-medium text-slate-900">{inv.email}</p>
                {inv.expiresAt && <p className="text-xs text-slate-500">Expires {formatDate(inv.expiresAt)}</p>}
              </div>
              <Badge>{roleLabels[inv.role]}</Badge>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Revoke the invitation of ${inv.email}`}
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(inv.id, {
                    onSuccess: () => toast({ title: 'Invitation revoked', description: `The link sent to ${inv.email} no longer works.` }),
                    onError: failed('Could not revoke the invitation'),
                  })
                }
              >
                <Trash2 aria-hidden="true" /> Revoke
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

/** The owner's switch that makes two-factor authentication a condition of opening the workspace's codes. */
function TwoFactorSetting({ workspace }: { workspace: ActiveWorkspace }) {
  const id = useId()
  const require2fa = useRequire2FA()
  const [error, setError] = useState<string>()
  const on = workspace.require2fa ?? false

  function change(next: boolean) {
    setError(undefined)
    require2fa.mutate(
      { id: workspace.id, require2fa: next },
      {
        onSuccess: () =>
          toast({
            title: next ? 'Two-factor authentication required' : 'Two-factor authentication optional',
            description: next ? 'Members without it are asked to set it up before they see the codes.' : 'Members can open the codes without it.',
          }),
        onError: (failure) => setError(fieldMessage(failure, 'require2fa') ?? serverMessage(failure) ?? 'Could not change the setting. Please try again.'),
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5" aria-hidden="true" /> Security
        </CardTitle>
        <CardDescription>API keys keep working either way.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <div className="flex items-center justify-between gap-4">
          <div>
            <Label htmlFor={`${id}-require2fa`}>Require two-factor authentication</Label>
            <p id={`${id}-hint`} className="text-sm text-slate-600">
              Members without it are asked to set it up in Account Settings before they see {workspace.name}&apos;s codes. Set it up for yourself first.
            </p>
          </div>
          <Switch
            id={`${id}-require2fa`}
            checked={on}
            disabled={require2fa.isPending}
            onCheckedChange={change}
            aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          />
        </div>
        {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
      </CardContent>
    </Card>
  )
}

/** An owner's or admin's own choice to get the workspace's alerts by e-mail (the ones mailed). */
function AlertEmailSetting({ workspace }: { workspace: ActiveWorkspace }) {
  const id = useId()
  const setting = useAlertEmails()
  const listed = useWorkspaces().data?.find((w) => w.id === workspace.id)
  const on = listed?.alertEmails ?? true

  function change(enabled: boolean) {
    setting.mutate(
      { id: workspace.id, enabled },
      {
        onSuccess: () => toast({ title: enabled ? 'Alert e-mails on' : 'Alert e-mails off' }),
        onError: (failure) => toast({ title: 'Could not change the setting', description: serverMessage(failure) ?? 'Please try again.', variant: 'destructive' }),
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing className="size-5" aria-hidden="true" /> Alerts
        </CardTitle>
        <CardDescription>Each code&apos;s bell button on the dashboard mutes that code&apos;s alerts for everyone.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center justify-between gap-4">
          <div>
            <Label htmlFor={`${id}-alert-emails`}>E-mail me alerts</Label>
            <p id={`${id}-hint`} className="text-sm text-slate-600">
              When a code&apos;s destination stops answering (and answers again) or its scans collapse, owners and admins of {workspace.name} get an e-mail. This
              choice is yours alone.
            </p>
          </div>
          <Switch
            id={`${id}-alert-emails`}
            checked={on}
            disabled={!listed || setting.isPending}
            onCheckedChange={change}
            aria-describedby={`${id}-hint`}
          />
        </div>
      </CardContent>
    </Card>
  )
}

/** Rename (owners and admins) and delete (owners; never the personal workspace). */
function WorkspaceSettings({ workspace }: { workspace: ActiveWorkspace }) {
  const personal = useWorkspaces().data?.find((w) => w.id === workspace.id)?.personal ?? true
  const rename = useRenameWorkspace()
  const del = useDeleteWorkspace()
  const [renaming, setRenaming] = useState(false)
  const mayRename = can(workspace.role, 'manageMembers')
  const mayDelete = can(workspace.role, 'own') && !personal
  if (!mayRename && !mayDelete) return null

  function deleteWorkspace() {
    if (!window.confirm(`Delete ${workspace.name}? Its codes stop redirecting and nobody can open them again. This cannot be undone.`)) return
    del.mutate(workspace.id, {
      onSuccess: () => toast({ title: 'Workspace deleted', description: `${workspace.name} is gone.` }),
      onError: failed('Could not delete the workspace'),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Workspace</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {mayRename && (
          <Button variant="outline" onClick={() => setRenaming(true)}>
            <Pencil aria-hidden="true" /> Rename workspace
          </Button>
        )}
        {mayDelete && (
          <Button variant="outline" className="text-red-600 hover:bg-red-50 hover:text-red-700" onClick={deleteWorkspace} disabled={del.isPending}>
            <Trash2 aria-hidden="true" /> Delete workspace
          </Button>
        )}
      </CardContent>
      <NameDialog
        open={renaming}
        onOpenChange={setRenaming}
        title="Rename workspace"
        label="Workspace name"
        initial={workspace.name}
        submitLabel="Save"
        onSubmit={(name) => rename.mutateAsync({ id: workspace.id, name })}
      />
    </Card>
  )
}

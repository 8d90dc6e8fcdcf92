import { LogOut, Trash2 } from 'lucide-react'
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { can, roleLabels, type ActiveWorkspace, type Role } from '@/lib/workspace'
import { useChangeRole, useMembers, useRemoveMember, useWorkspaces, type Member } from '../api/workspaces'
import { assignable, failed, formatDate } from '../lib/members'

/** Who is in the workspace and with what role; managers change roles and remove, members leave. */
export function MemberList({ workspace }: { workspace: ActiveWorkspace }) {
  const members = useMembers(workspace.id)
  const me = useUser().data?.id
  const remove = useRemoveMember(workspace.id)
  const navigate = useNavigate()
  const heading = useFocusAfterRemoval(members.data?.length ?? 0)
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
        <CardTitle ref={heading} tabIndex={-1} className="focus:outline-none">
          People
        </CardTitle>
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
                <RoleChoice member={m} workspace={workspace} />
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

/**
 * A member's role: choosing one only stages it (a closed select changes on
 * an arrow key), Change role commits it, and making an owner asks first.
 */
function RoleChoice({ member: m, workspace }: { member: Member; workspace: ActiveWorkspace }) {
  const changeRole = useChangeRole(workspace.id)
  const [staged, setStaged] = useState<Role | null>(null)
  const select = useRef<HTMLSelectElement>(null)

  function commit(role: Role) {
    if (role === 'owner' && !window.confirm(`Make ${m.email} an owner of ${workspace.name}? Owners can do everything, including removing other owners.`)) return
    // The button goes once the role is saved: focus waits on the select.
    select.current?.focus()
    changeRole.mutate(
      { userId: m.userId, role },
      {
        onSuccess: () => {
          setStaged(null)
          toast({ title: 'Role changed', description: `${m.email} is now ${roleLabels[role].toLowerCase()}.` })
        },
        onError: failed('Could not change the role'),
      },
    )
  }

  return (
    <div className="flex items-center gap-2">
      <NativeSelect
        ref={select}
        aria-label={`Role of ${m.email}`}
        value={staged ?? m.role}
        onChange={(e) => {
          const role = e.target.value as Role
          setStaged(role === m.role ? null : role)
        }}
      >
        {/* An owner seen by an admin cannot get here; the current role always shows. */}
        {assignable(workspace.role).map((r) => (
          <option key={r} value={r}>
            {roleLabels[r]}
          </option>
        ))}
      </NativeSelect>
      {staged && (
        <Button size="sm" variant="outline" aria-label={`Change role of ${m.email}`} onClick={() => commit(staged)} disabled={changeRole.isPending}>
          Change role
        </Button>
      )}
    </div>
  )
}

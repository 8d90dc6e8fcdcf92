import { Trash2 } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { roleLabels, type ActiveWorkspace } from '@/lib/workspace'
import { useInvitations, useRevokeInvitation } from '../api/workspaces'
import { failed, formatDate } from '../lib/members'

/** The invitations sent and not yet used; managers revoke them. */
export function InvitationList({ workspace }: { workspace: ActiveWorkspace }) {
  const invitations = useInvitations(workspace.id, true)
  const revoke = useRevokeInvitation(workspace.id)
  const heading = useFocusAfterRemoval(invitations.data?.length ?? 0)
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="focus:outline-none">
          Pending invitations
        </CardTitle>
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

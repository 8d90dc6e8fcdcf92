import { RefreshCw, Users } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import type { ActiveWorkspace } from '@/lib/workspace'
import { useWorkspaces } from '../api/workspaces'
import { useNewSCIMToken } from '../api/sso'

/**
 * The owner's SCIM provisioning (issue 33): a token for the identity
 * provider's provisioning client, shown once. Team workspaces only.
 */
export function SCIMSetting({ workspace }: { workspace: ActiveWorkspace }) {
  const listed = useWorkspaces().data?.find((w) => w.id === workspace.id)
  const make = useNewSCIMToken(workspace.id)
  if (!listed || listed.personal) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users className="size-5" aria-hidden="true" /> User provisioning (SCIM)
        </CardTitle>
        <CardDescription>
          Let your identity provider add, update and remove {workspace.name}&apos;s members. Groups get roles through the single sign-on mapping above.
          Deactivated people lose the workspace at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {make.data ? (
          <Alert>
            <p className="font-medium">Copy the token now: it is not shown again.</p>
            <dl className="mt-2 grid gap-1 text-sm">
              <dt className="font-medium">SCIM base URL</dt>
              <dd className="break-all font-mono">{make.data.baseUrl}</dd>
              <dt className="font-medium">Token</dt>
              <dd className="break-all font-mono">{make.data.token}</dd>
            </dl>
          </Alert>
        ) : null}
        {make.error ? <p role="alert" className="text-sm text-red-600">{serverMessage(make.error) ?? 'Could not make a token. Please try again.'}</p> : null}
        <Button type="button" variant="outline" className="justify-self-start" disabled={make.isPending} onClick={() => make.mutate()}>
          <RefreshCw aria-hidden="true" /> {make.data ? 'Replace the token' : 'Make a SCIM token'}
        </Button>
        <p className="text-sm text-slate-600">A new token replaces the one before, which stops working at once.</p>
      </CardContent>
    </Card>
  )
}

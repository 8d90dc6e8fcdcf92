import { BellRing } from 'lucide-react'
import { useId } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import type { ActiveWorkspace } from '@/lib/workspace'
import { useAlertEmails, useWorkspaces } from '../api/workspaces'

/** An owner's or admin's own choice to get the workspace's alerts by e-mail (the ones mailed). */
export function AlertEmailSetting({ workspace }: { workspace: ActiveWorkspace }) {
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

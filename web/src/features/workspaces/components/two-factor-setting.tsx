import { ShieldCheck } from 'lucide-react'
import { useId, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import type { ActiveWorkspace } from '@/lib/workspace'
import { useRequire2FA } from '../api/workspaces'

/** The owner's switch that makes two-factor authentication a condition of opening the workspace's codes. */
export function TwoFactorSetting({ workspace }: { workspace: ActiveWorkspace }) {
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

import { Loader2, ShieldCheck } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { TextField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { fieldMessage } from '@/lib/api-client'
import { useDisableTwoFactor, useEnableTOTP, useRegenerateRecoveryCodes, useSetupTOTP, useTwoFactorStatus } from '../api/two-factor'
import { ConfirmForm } from './confirm-form'
import { RecoveryCodes } from './recovery-codes'

/** Set up: the QR code and the key, then a code from the app turns it on. */
function Setup({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setup = useSetupTOTP()
  const enable = useEnableTOTP()
  const [code, setCode] = useState('')
  if (!setup.data) {
    return (
      <Button type="button" onClick={() => setup.mutate()} disabled={setup.isPending}>
        {setup.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Set up two-factor authentication
      </Button>
    )
  }
  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-600">Scan this code with your authenticator app (Google Authenticator, 1Password, Authy…), then enter the code it shows.</p>
      <img src={setup.data.qrCode} alt="QR code for your authenticator app" className="size-48 rounded border border-slate-200" />
      <p className="text-sm text-slate-600">
        Or enter this key: <code className="font-mono text-slate-900 break-all" data-testid="totp-secret">{setup.data.secret}</code>
      </p>
      <form
        noValidate
        className="grid gap-3 sm:max-w-xs"
        onSubmit={(event) => {
          event.preventDefault()
          enable.mutate(code, { onSuccess: (answer) => onEnabled(answer.recoveryCodes) })
        }}
      >
        <TextField
          id="totp-enable-code"
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={fieldMessage(enable.error, 'code')}
        />
        <Button type="submit" disabled={enable.isPending || code.trim() === ''}>
          {enable.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Enable
        </Button>
      </form>
    </div>
  )
}

/** Account settings: two-factor authentication with an authenticator app (TOTP) and its recovery codes. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus()
  const disable = useDisableTwoFactor()
  const regenerate = useRegenerateRecoveryCodes()
  const [codes, setCodes] = useState<string[] | null>(null)
  const [confirming, setConfirming] = useState<'disable' | 'regenerate' | null>(null)

  let body
  if (status.isLoading) {
    body = <Spinner />
  } else if (codes) {
    body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
  } else if (!status.data?.totp) {
    body = <Setup onEnabled={setCodes} />
  } else if (confirming) {
    const mutation = confirming === 'disable' ? disable : regenerate
    body = (
      <ConfirmForm
        id="two-factor-confirm"
        action={confirming === 'disable' ? 'Turn off' : 'Get new codes'}
        pending={mutation.isPending}
        error={mutation.error}
        onCancel={() => setConfirming(null)}
        onConfirm={(input) =>
          confirming === 'disable'
            ? disable.mutate(input, { onSuccess: () => setConfirming(null) })
            : regenerate.mutate(input, {
                onSuccess: (answer) => {
                  setConfirming(null)
                  setCodes(answer.recoveryCodes)
                },
              })
        }
      />
    )
  } else {
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-slate-600">Recovery codes left: {status.data.recoveryCodesLeft}</p>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming('regenerate')}>
            New recovery codes
          </Button>
          <Button type="button" variant="destructive" size="sm" onClick={() => setConfirming('disable')}>
            Turn off
          </Button>
        </div>
      </div>
    )
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5" aria-hidden="true" /> Two-factor authentication
          {status.data?.totp && <Badge tone="emerald">On</Badge>}
        </CardTitle>
        <CardDescription>Sign-ins ask for a code from your authenticator app as well as your password.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  )
}

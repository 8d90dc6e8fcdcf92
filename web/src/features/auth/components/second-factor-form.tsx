import { KeyRound, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { serverMessage } from '@/lib/api-client'
import { passkeysSupported } from '@/lib/webauthn'
import { useSignInStep, type SecondFactorMethod } from '../api/second-factor'

/** The sign-in's second step: a code from the authenticator app, a recovery code, or a passkey. */
export function SecondFactorForm({ methods, onCancel }: { methods: SecondFactorMethod[]; onCancel: () => void }) {
  const [recovery, setRecovery] = useState(false)
  const [value, setValue] = useState('')
  const step = useSignInStep()
  const label = recovery ? 'Recovery code' : 'Authentication code'
  const submit = () => step.mutate(recovery ? { recoveryCode: value } : { code: value })

  return (
    <div className="grid gap-6">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Two-factor authentication</h2>
        <p className="mt-1 text-sm text-slate-600">
          {recovery ? 'Enter one of your recovery codes. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
        </p>
      </div>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        <TextField
          id="two-factor-code"
          label={label}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          error={step.isError ? serverMessage(step.error) : undefined}
        />
        <Button type="submit" className="w-full" disabled={step.isPending || value.trim() === ''}>
          {step.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Verify
        </Button>
      </form>
      {methods.includes('webauthn') && passkeysSupported() && (
        <Button type="button" variant="outline" className="w-full" disabled={step.isPending} onClick={() => step.mutate({ passkey: true })}>
          <KeyRound aria-hidden="true" /> Use a passkey
        </Button>
      )}
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        {methods.includes('recovery') && (
          <button
            type="button"
            className="cursor-pointer font-medium text-primary hover:underline"
            onClick={() => {
              setRecovery(!recovery)
              setValue('')
              step.reset()
            }}
          >
            {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </button>
        )}
        <button type="button" className="cursor-pointer text-slate-600 hover:underline" onClick={onCancel}>
          Back to sign in
        </button>
      </div>
    </div>
  )
}

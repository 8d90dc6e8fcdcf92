import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { fieldMessage } from '@/lib/api-client'
import type { Confirmation } from '../api/two-factor'

/** Asks for the password, or a code (authenticator or recovery), before a change to the second factor. */
export function ConfirmForm({
  id,
  action,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  id: string
  action: string
  pending: boolean
  error: unknown
  onConfirm: (input: Confirmation) => void
  onCancel: () => void
}) {
  const [useCode, setUseCode] = useState(false)
  const [value, setValue] = useState('')
  return (
    <form
      noValidate
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        onConfirm(useCode ? { code: value } : { password: value })
      }}
    >
      <TextField
        id={id}
        label={useCode ? 'Authentication or recovery code' : 'Password'}
        type={useCode ? 'text' : 'password'}
        autoComplete={useCode ? 'one-time-code' : 'current-password'}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={fieldMessage(error, 'code')}
        labelAside={
          <button
            type="button"
            className="cursor-pointer text-sm font-medium text-primary hover:underline"
            onClick={() => {
              setUseCode(!useCode)
              setValue('')
            }}
          >
            {useCode ? 'Use my password' : 'Use a code instead'}
          </button>
        }
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending || value === ''}>
          {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
          {action}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

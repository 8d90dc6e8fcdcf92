import type { UseQueryResult } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'

/**
 * What the settings cards that list named things (custom domains, API keys)
 * share: the one-field form that adds one by its name, and the list's
 * loading, failed and empty states.
 */

interface AddByNameProps {
  id: string
  label: string
  placeholder: string
  maxLength: number
  /** Shown when the trimmed name is empty; nothing is sent then. */
  required: string
  submitLabel: string
  pendingLabel: string
  pending: boolean
  /** The server's refusal, shown under the field. */
  error?: string
  /** Called with the trimmed name; clear empties the field once it is added. */
  onAdd: (name: string, clear: () => void) => void
}

export function AddByNameForm({ id, label, placeholder, maxLength, required, submitLabel, pendingLabel, pending, error, onAdd }: AddByNameProps) {
  const [value, setValue] = useState('')
  const [missing, setMissing] = useState(false)

  function submit(event: FormEvent) {
    event.preventDefault()
    const name = value.trim()
    setMissing(!name)
    if (name) onAdd(name, () => setValue(''))
  }

  return (
    <form className="flex flex-wrap items-end gap-2" onSubmit={submit} noValidate>
      <div className="min-w-48 flex-1">
        <TextField
          id={id}
          label={label}
          placeholder={placeholder}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={missing ? required : error}
          maxLength={maxLength}
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  )
}

/** A list query's spinner, error or empty text; nothing once it has items. */
export function ListStatus({ query, failed, empty }: { query: UseQueryResult<unknown[]>; failed: string; empty: string }) {
  if (query.isPending) return <Spinner />
  if (query.isError) return <Alert variant="destructive">{serverMessage(query.error) ?? failed}</Alert>
  if (query.data.length === 0) return <p className="text-sm text-slate-600">{empty}</p>
  return null
}

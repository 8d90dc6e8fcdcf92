import { Mail, UserPlus } from 'lucide-react'
import { useId, useRef, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { roleLabels, type ActiveWorkspace, type Role } from '@/lib/workspace'
import { useInvite } from '../api/workspaces'
import { assignable } from '../lib/members'

/** Managers invite by e-mail, with the role the invitee gets. */
export function InviteCard({ workspace }: { workspace: ActiveWorkspace }) {
  const id = useId()
  const invite = useInvite(workspace.id)
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [error, setError] = useState<string>()
  const emailField = useRef<HTMLInputElement>(null)
  // A refusal ("Already invited as Editor") is about the address: focus goes
  // there, not to the page (the button is disabled while sending).
  const refuse = (message: string) => {
    setError(message)
    emailField.current?.focus()
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    const address = email.trim()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      refuse('Please enter a valid email')
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
        onError: (failure) => refuse(fieldMessage(failure, 'email') ?? serverMessage(failure) ?? 'Failed to send the invitation. Please try again.'),
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
              ref={emailField}
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

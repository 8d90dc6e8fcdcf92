import { Building2, Loader2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import { useFindSSO } from '../api/sso'

/**
 * "Sign in with SSO" (issue 33): the work address finds the workspace
 * whose identity provider signs in its domain, then the browser goes
 * there. Shown once a workspace on the instance has SAML set up.
 */
export function SSOSignIn() {
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState('')
  const find = useFindSSO()
  if (!open) {
    return (
      <Button type="button" variant="outline" className="w-full" onClick={() => setOpen(true)}>
        <Building2 aria-hidden="true" /> Sign in with SSO
      </Button>
    )
  }
  // 400 (not an address) and 404 (no workspace for its domain) both say so at the field.
  const error = find.error ? (serverFieldErrors(find.error)?.email ?? serverMessage(find.error) ?? 'Could not look up single sign-on. Please try again.') : undefined
  function submit(event: FormEvent) {
    event.preventDefault()
    find.mutate(email.trim())
  }
  return (
    <form className="grid gap-3" onSubmit={submit} noValidate aria-label="Sign in with SSO">
      <TextField
        id="sso-email"
        label="Work e-mail"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error}
        autoFocus
      />
      <Button type="submit" variant="outline" className="w-full" disabled={find.isPending || find.isSuccess}>
        {(find.isPending || find.isSuccess) && <Loader2 className="animate-spin" aria-hidden="true" />}
        Continue with SSO
      </Button>
    </form>
  )
}

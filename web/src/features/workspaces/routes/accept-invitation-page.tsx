import { CheckCircle2, UserPlus } from 'lucide-react'
import { Link, useLocation, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, serverMessage } from '@/lib/api-client'
import { useUser, type User } from '@/lib/auth'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { roleLabels } from '@/lib/workspace'
import { useAcceptInvitation, useInvitationPreview, type InvitationPreview } from '../api/workspaces'

/**
 * Where the invitation e-mail's link lands (?token=…). Signed out, it
 * offers sign-in and sign-up, which come back here; signed in, the
 * invitation is accepted by pressing the button (a POST, so a mail scanner
 * opening the link joins nobody). The link's ?email= (the invited address)
 * fills in those forms. The server accepts only the invited address, and
 * confirms it if it was not yet (the mailed link proves it), so an account
 * made from here joins at once; the page says what went wrong otherwise.
 */
export function AcceptInvitationPage({ onSignOut }: { onSignOut: () => void }) {
  usePageTitle(siteTitle('Join a workspace'))
  const [searchParams] = useSearchParams()
  const token = searchParams.get('token') ?? ''
  const { data: user, isLoading } = useUser()
  const preview = useInvitationPreview(token)

  let body
  if (token === '') body = <Alert className="mt-6">This link is incomplete. Please open the link from your e-mail again.</Alert>
  else if (isLoading) body = <Spinner />
  // A dead link says so before anyone signs in for nothing.
  else if (preview.isError && !user)
    body = (
      <div className="mt-6">
        <AcceptError error={preview.error} onSignOut={onSignOut} />
      </div>
    )
  else if (!user) body = <SignInFirst email={searchParams.get('email') ?? ''} />
  else body = <Accept token={token} user={user} onSignOut={onSignOut} />

  return (
    <div className="bg-gradient-to-b from-primary-50 to-white px-4 py-12 sm:py-20">
      <Card className="mx-auto max-w-md p-6 sm:p-10">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
          <UserPlus className="size-6 text-primary" aria-hidden="true" /> Join a workspace
        </h1>
        <p className="mt-1 text-sm text-slate-600" data-testid="invitation-summary">
          {preview.data ? <Invited preview={preview.data} /> : 'You have been invited to work on QR codes together in Squarely.'}
        </p>
        {body}
      </Card>
    </div>
  )
}

/** Who invited whom to what: "Ann Lee invited you to join Acme Marketing as an editor." */
function Invited({ preview }: { preview: InvitationPreview }) {
  const role = roleLabels[preview.role].toLowerCase()
  const article = /^[aeiou]/.test(role) ? 'an' : 'a'
  return (
    <>
      {preview.invitedBy ? <span className="break-all">{preview.invitedBy}</span> : 'You were'}
      {preview.invitedBy ? ' invited you' : ' invited'} to join <strong className="break-words text-slate-900">{preview.workspaceName}</strong> as{' '}
      {article} {role}.
    </>
  )
}

function SignInFirst({ email }: { email: string }) {
  const location = useLocation()
  const next = encodeURIComponent(location.pathname + location.search) + (email ? `&email=${encodeURIComponent(email)}` : '')
  return (
    <div className="mt-6 grid gap-3">
      <p className="text-slate-700">Sign in, or create an account, with the email address the invitation was sent to. You come back here afterwards.</p>
      <Button asChild>
        <Link to={`/auth?next=${next}`}>Sign in to accept</Link>
      </Button>
      <Button asChild variant="outline">
        <Link to={`/auth?mode=register&next=${next}`}>Create an account</Link>
      </Button>
    </div>
  )
}

function Accept({ token, user, onSignOut }: { token: string; user: User; onSignOut: () => void }) {
  const accept = useAcceptInvitation()
  const email = user.email || user.username

  if (accept.isSuccess) {
    return (
      <div className="mt-6 grid gap-4">
        <p className="flex items-center gap-2 text-slate-700" role="status">
          <CheckCircle2 className="size-5 shrink-0 text-green-600" aria-hidden="true" />
          You joined {accept.data.name} as {roleLabels[accept.data.role].toLowerCase()}.
        </p>
        <Button asChild>
          <Link to="/dashboard">Go to the shared QR codes</Link>
        </Button>
      </div>
    )
  }

  return (
    <div className="mt-6 grid gap-4">
      <p className="text-slate-700">
        You are signed in as <strong className="break-all">{email}</strong>.
      </p>
      {accept.isError && <AcceptError error={accept.error} onSignOut={onSignOut} />}
      <Button type="button" onClick={() => accept.mutate(token)} disabled={accept.isPending}>
        {accept.isPending ? 'Joining...' : 'Accept invitation'}
      </Button>
    </div>
  )
}

/** Why the server refused: someone else's invitation or a dead link. */
function AcceptError({ error, onSignOut }: { error: Error; onSignOut: () => void }) {
  const status = error instanceof ApiError ? error.status : 0
  const said = serverMessage(error)
  if (status === 403) {
    return (
      <Alert variant="destructive" className="grid gap-2">
        <p className="font-semibold">This invitation is for another email address</p>
        <p>{said ?? 'It was sent to a different address than the one you are signed in with.'} Sign out, then open the link again and sign in with the invited address.</p>
        <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={onSignOut}>
          Sign out
        </Button>
      </Alert>
    )
  }
  if (status === 404 || status === 400) {
    return (
      <Alert variant="destructive" className="grid gap-2">
        <p className="font-semibold">This invitation can no longer be used</p>
        <p>{said ?? 'The link is invalid, has expired (links work for 7 days), was revoked or was already used.'} Ask the person who invited you to send a new one.</p>
      </Alert>
    )
  }
  return <Alert variant="destructive">{said ?? 'Something went wrong. Please try again.'}</Alert>
}

import { CheckCircle2 } from 'lucide-react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { isChallenge } from '../api/second-factor'
import { useVerifyEmail } from '../api/verify-email'

/**
 * /verify-email?token=…: where the confirmation e-mail's link lands. The
 * address is confirmed only by pressing the button (a POST), so a mail
 * scanner that opens the link confirms nothing.
 */
export function VerifyEmailPage() {
  usePageTitle(siteTitle('Confirm your email'))
  const [searchParams] = useSearchParams()
  const token = searchParams.get('token') ?? ''
  const mutation = useVerifyEmail()

  let body
  if (token === '') {
    body = <Alert className="mt-6">This link is incomplete. Please open the link from your e-mail again.</Alert>
  } else if (mutation.isSuccess && isChallenge(mutation.data)) {
    body = <Navigate to="/auth?twoFactor=required" replace />
  } else if (mutation.isSuccess) {
    body = (
      <div className="mt-6 grid gap-4">
        <p className="flex items-center gap-2 text-slate-700">
          <CheckCircle2 className="size-5 text-green-600" aria-hidden="true" /> Your email address is confirmed.
        </p>
        <Button asChild>
          <Link to="/dashboard">Go to my QR codes</Link>
        </Button>
      </div>
    )
  } else if (mutation.isPending) {
    body = <Spinner />
  } else {
    body = (
      <div className="mt-6 grid gap-4">
        {mutation.isError && (
          <Alert variant="destructive">{serverMessage(mutation.error) ?? 'Could not confirm your email. Please try again.'}</Alert>
        )}
        <Button type="button" onClick={() => mutation.mutate(token)}>
          Confirm my email
        </Button>
      </div>
    )
  }
  return (
    <div className="bg-gradient-to-b from-primary-50 to-white px-4 py-12 sm:py-20">
      <Card className="mx-auto max-w-md p-8 sm:p-10">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Confirm your email</h1>
        <p className="mt-1 text-sm text-slate-600">Confirming proves the address is yours and signs out every other device on the account.</p>
        {body}
      </Card>
    </div>
  )
}

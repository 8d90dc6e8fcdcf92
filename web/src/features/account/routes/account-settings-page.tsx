import { zodResolver } from '@hookform/resolvers/zod'
import { AlertTriangle, Loader2, Mail, Pencil } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { useUser, type User } from '@/lib/auth'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useDeleteAccount } from '../api/delete-account'
import { useResendVerification } from '../api/resend-verification'
import { useUpdateName, type NameInput } from '../api/update-name'
import { subscriptionLabel } from '../labels'
import { nameSchema } from '../schemas'
import { showServerFieldErrors } from '@/lib/form-errors'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-slate-100 py-4 last:border-b-0 sm:grid-cols-[12rem_1fr] sm:items-center">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-900">{children}</dd>
    </div>
  )
}

function EmailRow({ user }: { user: User }) {
  const resend = useResendVerification()
  const email = user.email || user.username
  return (
    <Row label="Email">
      <div className="flex flex-wrap items-center gap-2">
        <span className="break-all" title={email}>
          {email}
        </span>
        {user.emailVerified === false && (
          <>
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-800">Not confirmed</span>
            <Button type="button" variant="link" size="sm" className="h-auto px-0" disabled={resend.isPending} onClick={() => resend.mutate()}>
              <Mail aria-hidden="true" /> Send the confirmation link again
            </Button>
          </>
        )}
      </div>
    </Row>
  )
}

/** The name with Edit, then Save ('Saving...') or Cancel back to the stored values (spec 02 §4). */
function NameRow({ user }: { user: User }) {
  const [editing, setEditing] = useState(false)
  const mutation = useUpdateName()
  const stored = { firstName: user.firstName ?? '', lastName: user.lastName ?? '' }
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<NameInput>({ resolver: zodResolver(nameSchema), values: stored })
  const name = [stored.firstName, stored.lastName].filter(Boolean).join(' ')

  const cancel = () => {
    reset(stored)
    setEditing(false)
  }

  if (!editing) {
    return (
      <Row label="Name">
        <div className="flex items-center justify-between gap-3">
          <span className={name ? 'truncate' : 'text-slate-500'} title={name}>
            {name || 'Not set'}
          </span>
          <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
        </div>
      </Row>
    )
  }
  return (
    <Row label="Name">
      <form
        noValidate
        className="grid gap-3"
        onSubmit={handleSubmit((values) => mutation.mutate(values, {
            onSuccess: () => setEditing(false),
            onError: (error) => showServerFieldErrors(error, setError, ['firstName', 'lastName']),
          }))}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField id="first-name" label="First name" autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
          <TextField id="last-name" label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
        </div>
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={mutation.isPending}>
            {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {mutation.isPending ? 'Saving...' : 'Save'}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={cancel} disabled={mutation.isPending}>
            Cancel
          </Button>
        </div>
      </form>
    </Row>
  )
}

function DangerZone() {
  const [confirming, setConfirming] = useState(false)
  const mutation = useDeleteAccount()
  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-red-700">
          <AlertTriangle className="size-5" aria-hidden="true" /> Danger Zone
        </CardTitle>
        <CardDescription>
          Deleting your account signs you out everywhere and stops your dynamic QR codes from redirecting. Take your codes, scans and redirects with you first
          from the workspace&apos;s{' '}
          <Link to="/workspace/export" className="font-medium text-primary underline">
            Export
          </Link>{' '}
          tab.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" variant="destructive" onClick={() => setConfirming(true)} disabled={mutation.isPending || mutation.isSuccess}>
          Delete Account
        </Button>
      </CardContent>
      <Dialog open={confirming} onOpenChange={(open) => !mutation.isPending && setConfirming(open)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>
              This cannot be undone. You will be signed out on every device, and your dynamic QR codes will stop redirecting.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirming(false)} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button
              type="button"
              variant="destructive"
              disabled={mutation.isPending || mutation.isSuccess}
              onClick={() => mutation.mutate(undefined, { onSettled: () => setConfirming(false) })}
            >
              {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {mutation.isPending ? 'Deleting...' : 'Delete Account'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}

/** /account-settings (spec 02 §2): e-mail, name, subscription, account type and the danger zone. */
/** The account settings page; `more` holds cards other areas add (security), above the danger zone. */
export function AccountSettingsPage({ more }: { more?: ReactNode }) {
  usePageTitle(siteTitle('Account Settings'))
  const { data: user } = useUser()

  if (!user) {
    return <p className="px-4 py-16 text-center text-slate-600">Please log in to access account settings.</p>
  }
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Account Settings</h1>
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
        </CardHeader>
        <CardContent>
          <dl>
            <EmailRow user={user} />
            <NameRow user={user} />
            <Row label="Subscription status">{subscriptionLabel(user.subscriptionStatus)}</Row>
            <Row label="Account type">{user.googleId ? 'Google account' : 'Email account'}</Row>
          </dl>
        </CardContent>
      </Card>
      {more}
      <DangerZone />
    </div>
  )
}

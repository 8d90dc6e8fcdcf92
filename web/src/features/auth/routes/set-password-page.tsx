import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Navigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { TextField } from '@/components/ui/form-field'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { isChallenge } from '../api/second-factor'
import { setPasswordInputSchema, useSetPassword, type SetPasswordInput } from '../api/set-password'
import { showServerFieldErrors } from '@/lib/form-errors'

/** /set-password?token=…: where the free-trial e-mail's link lands. */
export function SetPasswordPage() {
  usePageTitle(siteTitle('Set your password'))
  const [searchParams] = useSearchParams()
  const token = searchParams.get('token') ?? ''
  const mutation = useSetPassword(token)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SetPasswordInput>({
    resolver: zodResolver(setPasswordInputSchema),
    defaultValues: { password: '', confirmPassword: '' },
  })

  if (mutation.isSuccess) return <Navigate to={isChallenge(mutation.data) ? '/auth?twoFactor=required' : '/'} replace />

  return (
    <div className="bg-gradient-to-b from-primary-50 to-white px-4 py-12 sm:py-20">
      <Card className="mx-auto max-w-md p-8 sm:p-10">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Set your password</h1>
        <p className="mt-1 text-sm text-slate-600">Choose a password to sign in to your account next time.</p>
        {token === '' ? (
          <Alert className="mt-6">This link is incomplete. Please open the link from your e-mail again.</Alert>
        ) : (
          <form noValidate className="mt-6 grid gap-4" onSubmit={handleSubmit((values) =>
              mutation.mutate(values, { onError: (error) => showServerFieldErrors(error, setError, ['password', 'confirmPassword']) }),
            )}>
            <TextField
              id="set-password"
              label="New password"
              error={errors.password?.message}
              type="password"
              autoComplete="new-password"
              {...register('password')}
            />
            <TextField
              id="set-password-confirm"
              label="Confirm password"
              error={errors.confirmPassword?.message}
              type="password"
              autoComplete="new-password"
              {...register('confirmPassword')}
            />
            <Button type="submit" className="w-full" disabled={mutation.isPending}>
              {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Set password
            </Button>
          </form>
        )}
      </Card>
    </div>
  )
}

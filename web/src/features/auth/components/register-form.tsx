import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { registerInputSchema, useRegister, type RegisterFields } from '../api/register'
import { GoogleButton } from './google-button'
import { showServerFieldErrors } from '@/lib/form-errors'

/**
 * email fills in the address (an invitation's link names it, or the
 * sign-in form had it); onSwitch gets the address typed here. The
 * invitation's token goes with the sign-up, which confirms the address it
 * was mailed to at once. autoFocus (the form was switched to) focuses the
 * first field to type in.
 */
export function RegisterForm({
  onSwitch,
  email = '',
  invitationToken,
  autoFocus = false,
}: {
  onSwitch: (email: string) => void
  email?: string
  invitationToken?: string
  autoFocus?: boolean
}) {
  const registerMutation = useRegister()
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<RegisterFields>({ resolver: zodResolver(registerInputSchema), defaultValues: { email, password: '' } })

  const claim = registerMutation.data && !('id' in registerMutation.data) ? registerMutation.data.message : undefined

  return (
    <div className="grid gap-6">
      {claim && <Alert>{claim}</Alert>}
      <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) =>
          registerMutation.mutate({ ...values, invitationToken }, { onError: (error) => showServerFieldErrors(error, setError, ['email', 'password']) }),
        )}>
        <TextField
          id="register-email"
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          autoFocus={autoFocus && !email}
          {...register('email')}
        />
        <TextField
          id="register-password"
          label="Password"
          error={errors.password?.message}
          type="password"
          autoComplete="new-password"
          autoFocus={autoFocus && Boolean(email)}
          placeholder="At least 6 characters"
          {...register('password')}
        />
        <Button type="submit" className="w-full" disabled={registerMutation.isPending}>
          {registerMutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Create Account
        </Button>
      </form>
      <GoogleButton>Sign up with Google</GoogleButton>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <button type="button" onClick={() => onSwitch(getValues('email'))} className="cursor-pointer font-semibold text-primary hover:underline">
          Sign In
        </button>
      </p>
    </div>
  )
}

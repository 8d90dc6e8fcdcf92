import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { forgotPasswordInputSchema, useForgotPassword, type ForgotPasswordInput } from '../api/forgot-password'
import { showServerFieldErrors } from '@/lib/form-errors'

/** 'Forgot my password': asks for the e-mail and mails a link to /set-password. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const mutation = useForgotPassword()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordInputSchema), defaultValues: { email: '' } })

  return (
    <div className="grid gap-4">
      {mutation.data ? (
        <Alert>{mutation.data.message}</Alert>
      ) : (
        <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) => mutation.mutate(values, { onError: (error) => showServerFieldErrors(error, setError, ['email']) }))}>
          <p className="text-sm text-slate-600">Enter the email address of your account and we will send you a link to choose a new password.</p>
          <TextField
            id="forgot-email"
            label="Email"
            error={errors.email?.message}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...register('email')}
          />
          <Button type="submit" className="w-full" disabled={mutation.isPending}>
            {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Send link
          </Button>
        </form>
      )}
      <button type="button" onClick={onBack} className="cursor-pointer text-center text-sm font-semibold text-primary hover:underline">
        Back to Sign In
      </button>
    </div>
  )
}

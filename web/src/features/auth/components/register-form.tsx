import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { registerInputSchema, useRegister, type RegisterInput } from '../api/register'
import { GoogleButton } from './google-button'
import { OrDivider } from './or-divider'

export function RegisterForm({ onSwitch }: { onSwitch: () => void }) {
  const registerMutation = useRegister()
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterInput>({ resolver: zodResolver(registerInputSchema), defaultValues: { email: '', password: '' } })

  return (
    <div className="grid gap-6">
      <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) => registerMutation.mutate(values))}>
        <div className="grid gap-2">
          <Label htmlFor="register-email">Email</Label>
          <Input
            id="register-email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'register-email-error' : undefined}
            {...register('email')}
          />
          <FieldError id="register-email-error">{errors.email?.message}</FieldError>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="register-password">Password</Label>
          <Input
            id="register-password"
            type="password"
            autoComplete="new-password"
            placeholder="At least 6 characters"
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'register-password-error' : undefined}
            {...register('password')}
          />
          <FieldError id="register-password-error">{errors.password?.message}</FieldError>
        </div>
        <Button type="submit" className="w-full" disabled={registerMutation.isPending}>
          {registerMutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Create Account
        </Button>
      </form>
      <OrDivider />
      <GoogleButton>Sign up with Google</GoogleButton>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <button type="button" onClick={onSwitch} className="cursor-pointer font-semibold text-primary hover:underline">
          Sign In
        </button>
      </p>
    </div>
  )
}

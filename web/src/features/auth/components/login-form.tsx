import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { loginInputSchema, useLogin, type LoginInput } from '../api/login'
import { GoogleButton } from './google-button'
import { OrDivider } from './or-divider'

export function LoginForm({ onSwitch }: { onSwitch: () => void }) {
  const loginMutation = useLogin()
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInputSchema), defaultValues: { username: '', password: '' } })

  return (
    <div className="grid gap-6">
      <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) => loginMutation.mutate(values))}>
        <div className="grid gap-2">
          <Label htmlFor="login-username">Email</Label>
          <Input
            id="login-username"
            type="email"
            autoComplete="username"
            placeholder="you@example.com"
            aria-invalid={errors.username ? true : undefined}
            aria-describedby={errors.username ? 'login-username-error' : undefined}
            {...register('username')}
          />
          <FieldError id="login-username-error">{errors.username?.message}</FieldError>
        </div>
        <div className="grid gap-2">
          <div className="flex items-center justify-between">
            <Label htmlFor="login-password">Password</Label>
            <a href="#" onClick={(e) => e.preventDefault()} className="text-sm font-medium text-primary hover:underline">
              Forgot my password
            </a>
          </div>
          <Input
            id="login-password"
            type="password"
            autoComplete="current-password"
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'login-password-error' : undefined}
            {...register('password')}
          />
          <FieldError id="login-password-error">{errors.password?.message}</FieldError>
        </div>
        <Button type="submit" className="w-full" disabled={loginMutation.isPending}>
          {loginMutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Sign In
        </Button>
      </form>
      <OrDivider />
      <GoogleButton>Sign in with Google</GoogleButton>
      <p className="text-center text-sm text-slate-600">
        New to Squarely?{' '}
        <button type="button" onClick={onSwitch} className="cursor-pointer font-semibold text-primary hover:underline">
          Create a free account
        </button>
      </p>
    </div>
  )
}

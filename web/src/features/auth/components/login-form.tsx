import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { loginInputSchema, useLogin, type LoginInput } from '../api/login'
import { ForgotPasswordForm } from './forgot-password-form'
import { GoogleButton } from './google-button'

export function LoginForm({ onSwitch }: { onSwitch: () => void }) {
  const [forgotten, setForgotten] = useState(false)
  const loginMutation = useLogin()
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInputSchema), defaultValues: { username: '', password: '' } })

  if (forgotten) return <ForgotPasswordForm onBack={() => setForgotten(false)} />

  return (
    <div className="grid gap-6">
      <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) => loginMutation.mutate(values))}>
        <TextField
          id="login-username"
          label="Email"
          error={errors.username?.message}
          type="email"
          autoComplete="username"
          placeholder="you@example.com"
          {...register('username')}
        />
        <TextField
          id="login-password"
          label="Password"
          labelAside={
            <button type="button" onClick={() => setForgotten(true)} className="cursor-pointer text-sm font-medium text-primary hover:underline">
              Forgot my password
            </button>
          }
          error={errors.password?.message}
          type="password"
          autoComplete="current-password"
          {...register('password')}
        />
        <Button type="submit" className="w-full" disabled={loginMutation.isPending}>
          {loginMutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Sign In
        </Button>
      </form>
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

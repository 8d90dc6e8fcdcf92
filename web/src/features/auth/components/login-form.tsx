import { zodResolver } from '@hookform/resolvers/zod'
import { KeyRound, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { TextField } from '@/components/ui/form-field'
import { passkeysSupported } from '@/lib/webauthn'
import { useGoogleSignIn, usePasswordLogin } from '@/lib/white-label'
import { loginInputSchema, useLogin, type LoginInput } from '../api/login'
import { isChallenge, useSignInProviders, useSignInStep, type SecondFactorMethod } from '../api/second-factor'
import { ForgotPasswordForm } from './forgot-password-form'
import { GoogleButton } from './google-button'
import { OrDivider } from './or-divider'
import { SecondFactorForm } from './second-factor-form'
import { SSOSignIn } from './sso-sign-in'

/**
 * email fills in the address (an invitation's link names it, or the
 * register form had it); onSwitch gets the address typed here. autoFocus
 * (the form was switched to) focuses the first field to type in.
 */
export function LoginForm({ onSwitch, email = '', autoFocus = false }: { onSwitch: (email: string) => void; email?: string; autoFocus?: boolean }) {
  const [forgotten, setForgotten] = useState(false)
  const [methods, setMethods] = useState<SecondFactorMethod[] | null>(null)
  const loginMutation = useLogin()
  const passkey = useSignInStep()
  const providers = useSignInProviders()
  const google = useGoogleSignIn()
  const passwordLogin = usePasswordLogin()
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInputSchema), defaultValues: { username: email, password: '' } })

  if (forgotten) return <ForgotPasswordForm onBack={() => setForgotten(false)} />
  if (methods) return <SecondFactorForm methods={methods} onCancel={() => setMethods(null)} />

  const oidc = providers.data?.oidc
  const saml = providers.data?.saml
  const passwordForm = (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) =>
        loginMutation.mutate(values, {
          onSuccess: (answer) => {
            if (isChallenge(answer)) setMethods(answer.methods)
          },
        }),
      )}
    >
      <TextField
        id="login-username"
        label="Email"
        error={errors.username?.message}
        type="email"
        autoComplete="username webauthn"
        placeholder="you@example.com"
        autoFocus={autoFocus && !email}
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
        autoFocus={autoFocus && Boolean(email)}
        {...register('password')}
      />
      <Button type="submit" className="w-full" disabled={loginMutation.isPending}>
        {loginMutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Sign In
      </Button>
    </form>
  )
  return (
    <div className="grid gap-6">
      {passwordLogin ? (
        passwordForm
      ) : (
        <>
          <p className="text-sm text-slate-600">Password sign-in is off on this instance: sign in with single sign-on or a passkey.</p>
          {/* Administrators keep a password as a way in when single sign-on fails. */}
          <details className="order-last text-sm">
            <summary className="cursor-pointer font-medium text-slate-700">Administrator sign-in with a password</summary>
            <div className="mt-3">{passwordForm}</div>
          </details>
        </>
      )}
      {/* GoogleButton brings its own divider; the others need one when Google is off. */}
      {passwordLogin && !google && (oidc || saml || passkeysSupported()) && <OrDivider />}
      <div className="grid gap-3">
        <GoogleButton>Sign in with Google</GoogleButton>
        {oidc && (
          <Button type="button" variant="outline" className="w-full" onClick={() => window.location.assign('/auth/oidc')}>
            {oidc.name}
          </Button>
        )}
        {saml && <SSOSignIn />}
        {passkeysSupported() && (
          <Button type="button" variant="outline" className="w-full" disabled={passkey.isPending} onClick={() => passkey.mutate({ passkey: true })}>
            <KeyRound aria-hidden="true" /> Sign in with a passkey
          </Button>
        )}
      </div>
      <p className="text-center text-sm text-slate-600">
        New to Squarely?{' '}
        <button type="button" onClick={() => onSwitch(getValues('username'))} className="cursor-pointer font-semibold text-primary hover:underline">
          Create a free account
        </button>
      </p>
    </div>
  )
}

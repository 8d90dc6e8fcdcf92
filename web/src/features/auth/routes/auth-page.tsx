import { BarChart3, Check, Palette, QrCode } from 'lucide-react'
import { useState } from 'react'
import { Navigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { useUser } from '@/lib/auth'
import { usePasswordLogin } from '@/lib/white-label'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { usePendingLogin, useSignInProviders } from '../api/second-factor'
import { LoginForm } from '../components/login-form'
import { RegisterForm } from '../components/register-form'
import { SecondFactorForm } from '../components/second-factor-form'

/** Any provider's sign-in of an account its organisation has deactivated (SCIM) comes back with =suspended. */
const suspended = 'This account is deactivated by the organisation that manages it.'

/** What the server's Google and OpenID Connect callbacks report through ?google=… and ?oidc=…. */
const googleMessages: Record<string, string> = {
  unavailable: 'Google sign-in is not available',
  failed: 'Google sign-in failed',
  suspended,
}
const oidcMessages: Record<string, string> = {
  unavailable: 'Single sign-on is not available',
  failed: 'Single sign-on failed',
  suspended,
}
/** What a workspace's SAML sign-in reports through ?sso=…. */
const ssoMessages: Record<string, string> = {
  failed: 'Single sign-on failed. Try again, or ask your workspace owner to check its identity provider.',
  busy: 'Too many sign-ins started from this address. Please try again in a minute.',
  missing: 'Single sign-on is not set up for this workspace. Sign in another way, or ask its owner.',
  suspended,
  account_exists:
    'An account with this address already exists, and the workspace has not verified its domain: sign in to that account another way, or ask the workspace owner to verify the domain.',
}

/** What the server's sign-up policy answers a refused new account with (?signup=…, or a 403's code). */
const signupMessages: Record<string, string> = {
  signup_closed: 'This instance does not take new accounts. Ask its administrator for one.',
  signup_invite_only: 'This instance takes new accounts by invitation only: ask a workspace admin to invite your address.',
  signup_domain: 'New accounts on this instance are for addresses of its organisation only.',
}

const registerWithoutPassword = 'Registration with a password is off on this instance: sign up with single sign-on on the sign-in page.'

/**
 * Where to go once signed in: ?next= when it is a path of this site (a
 * mailed invitation sends people here and back), else home.
 */
function nextPath(params: URLSearchParams) {
  const next = params.get('next') ?? ''
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/'
}

/** The token of the invitation whose page sent the visitor here (?next=/invitations/accept?token=…), if any. */
function invitationToken(params: URLSearchParams) {
  const next = new URL(nextPath(params), window.location.origin)
  return next.pathname === '/invitations/accept' ? (next.searchParams.get('token') ?? undefined) : undefined
}

const perks = [
  { icon: QrCode, text: 'Static QR codes, free forever' },
  { icon: Palette, text: 'Colours, shapes, logos and frames' },
  { icon: BarChart3, text: 'Dynamic codes with scan analytics' },
]

export function AuthPage() {
  usePageTitle(siteTitle('Login'))
  const { data: user, isLoading } = useUser()
  const [urlParams, setSearchParams] = useSearchParams()
  // The address typed in one form before switching to the other (kept here, not in the address bar).
  const [typedEmail, setTypedEmail] = useState('')
  // A switch between the forms shows the other one at once, focused, while the address
  // bar follows (a navigation, which React Router runs as a transition): until it has,
  // the old form would stay on screen and take what is typed, lost when it went.
  const [switched, setSwitched] = useState<{ from: string; to: URLSearchParams } | null>(null)
  const searchParams = switched?.from === urlParams.toString() ? switched.to : urlParams
  const isRegister = searchParams.get('mode') === 'register'
  const providerMessage =
    googleMessages[searchParams.get('google') ?? ''] ?? oidcMessages[searchParams.get('oidc') ?? ''] ?? ssoMessages[searchParams.get('sso') ?? ''] ?? signupMessages[searchParams.get('signup') ?? '']
  const { data: providers } = useSignInProviders()
  const passwordLogin = usePasswordLogin()
  // A closed instance makes no accounts; one without passwords makes them through single sign-on.
  const registerOff = providers?.signup === 'closed' ? signupMessages.signup_closed : !passwordLogin ? registerWithoutPassword : undefined
  const signupNote =
    providers?.signup === 'invite'
      ? 'New accounts are by invitation only: register with the address you were invited at.'
      : providers?.signupDomains?.length
        ? `New accounts are for addresses at ${providers.signupDomains.join(', ')} only.`
        : undefined
  // Google and OIDC sign-ins of an account with a second factor come back with ?twoFactor=required.
  const twoFactor = searchParams.get('twoFactor') === 'required'
  const pending = usePendingLogin(twoFactor && !user)

  if (isLoading || pending.isLoading) return <Spinner />
  if (user) return <Navigate to={nextPath(searchParams)} replace />

  const next = searchParams.get('next')
  // An invitation's link names the invited address (?email=): both forms
  // start with it, or with the one typed in the other form before switching.
  const email = typedEmail || (searchParams.get('email') ?? '')
  const switchTo = (mode: 'login' | 'register', typed = '') => {
    setTypedEmail(typed.trim())
    const invited = searchParams.get('email')
    const to = new URLSearchParams({ ...(mode === 'register' && { mode }), ...(next && { next }), ...(invited && { email: invited }) })
    setSwitched({ from: urlParams.toString(), to })
    setSearchParams(to, { replace: true })
  }

  return (
    <div className="bg-gradient-to-b from-primary-50 to-white px-4 py-12 sm:py-20">
      <Card className="mx-auto grid max-w-4xl overflow-hidden md:grid-cols-2">
        <div className="hidden flex-col justify-between bg-gradient-to-br from-primary to-secondary p-10 text-white md:flex">
          <div>
            <h2 className="text-2xl font-bold">Make every scan count.</h2>
            <p className="mt-2 text-primary-100">Create, style and track QR codes that people actually scan.</p>
          </div>
          <ul className="grid gap-4">
            {perks.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3">
                <span className="grid size-9 place-items-center rounded-lg bg-white/15">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
          <p className="flex items-center gap-2 text-sm text-primary-100">
            <Check className="size-4" aria-hidden="true" /> No credit card required
          </p>
        </div>
        <div className="p-8 sm:p-10">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {isRegister ? 'Create your account' : 'Welcome back'}
          </h1>
          <p className="mt-1 mb-6 text-sm text-slate-600">
            {isRegister ? 'Start making QR codes in under a minute.' : 'Sign in to manage your QR codes.'}
          </p>
          {providerMessage && (
            <Alert variant="destructive" className="mb-6">
              {providerMessage}
            </Alert>
          )}
          {twoFactor && !pending.data && (
            <Alert variant="destructive" className="mb-6">
              Your sign-in has expired. Please sign in again.
            </Alert>
          )}
          {twoFactor && pending.data ? (
            <SecondFactorForm methods={pending.data.methods} onCancel={() => switchTo('login')} />
          ) : isRegister && registerOff ? (
            <div className="grid gap-4">
              <Alert>{registerOff}</Alert>
              <button type="button" className="justify-self-start text-sm font-medium text-primary underline" onClick={() => switchTo('login')}>
                Go to sign in
              </button>
            </div>
          ) : isRegister ? (
            <>
              {signupNote && <Alert className="mb-6">{signupNote}</Alert>}
              <RegisterForm email={email} invitationToken={invitationToken(searchParams)} autoFocus={switched !== null} onSwitch={(typed) => switchTo('login', typed)} />
            </>
          ) : (
            <LoginForm email={email} autoFocus={switched !== null} onSwitch={(typed) => switchTo('register', typed)} />
          )}
        </div>
      </Card>
    </div>
  )
}

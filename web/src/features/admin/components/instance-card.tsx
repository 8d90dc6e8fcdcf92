import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useSignInProviders } from '@/features/auth'
import { usePasswordLogin, usePublicGenerator } from '@/lib/white-label'

const signupWords = {
  open: 'Anyone can make an account',
  invite: 'Only addresses with a pending workspace invitation can make an account',
  closed: 'Nobody can make an account: admins make them with squarely admin create-user',
} as const

/**
 * The instance's access settings, for admins to see (issue 33): they are
 * environment variables (README's settings table), so this card only reads them.
 */
export function InstanceCard() {
  const { data: providers } = useSignInProviders()
  const passwordLogin = usePasswordLogin()
  const publicGenerator = usePublicGenerator()
  const rows = [
    ['Sign-up (SQUARELY_SIGNUP)', providers?.signup ? signupWords[providers.signup] : '…'],
    ['E-mail domains (SQUARELY_SIGNUP_DOMAINS)', providers?.signupDomains?.length ? providers.signupDomains.join(', ') : 'Any'],
    ['Password sign-in (SQUARELY_PASSWORD_LOGIN)', passwordLogin ? 'On' : 'Off: admins only, as break-glass'],
    ['Generator for visitors (SQUARELY_PUBLIC_GENERATOR)', publicGenerator ? 'On' : 'Off: members only'],
    ['Single sign-on (SQUARELY_OIDC_ISSUER)', providers?.oidc ? providers.oidc.name : 'Off'],
  ]
  return (
    <Card className="mb-8">
      <CardHeader>
        <CardTitle>Instance</CardTitle>
        <CardDescription>Who may use this instance. These are settings of the server's environment; change them there and restart.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-medium text-slate-700">{term}</dt>
              <dd className="text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  )
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, getQueryFn, serverMessage } from '@/lib/api-client'
import { setSessionUser, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'
import { getPasskey, passkeyProblem } from '@/lib/webauthn'

export type SecondFactorMethod = 'totp' | 'webauthn' | 'recovery'

/** A right password (or mailed link) of an account with a second factor: no session until it comes. */
export interface TwoFactorChallenge {
  twoFactorRequired: true
  methods: SecondFactorMethod[]
}

/** What login, set-password and verify-email answer. */
export type SignInAnswer = User | TwoFactorChallenge

export function isChallenge(answer: SignInAnswer): answer is TwoFactorChallenge {
  return 'twoFactorRequired' in answer && answer.twoFactorRequired === true
}

/** GET /api/login/2fa: the methods of this browser's pending sign-in, null when it has none (expired). */
export function usePendingLogin(enabled: boolean) {
  return useQuery({
    queryKey: ['/api/login/2fa'],
    queryFn: getQueryFn<{ methods: SecondFactorMethod[] }>({ on401: 'returnNull' }),
    enabled,
  })
}

/** A sign-in by passkey: the pending sign-in's second factor when there is one, else without a password. */
export async function passkeySignIn(): Promise<User> {
  const options = await apiJson<{ publicKey: Record<string, unknown> }>('POST', '/api/webauthn/login/begin', {})
  const credential = await getPasskey(options)
  return apiJson<User>('POST', '/api/webauthn/login/finish', credential)
}

export type SecondFactorInput = { code: string } | { recoveryCode: string } | { passkey: true }

function secondFactor(input: SecondFactorInput) {
  if ('passkey' in input) return passkeySignIn()
  return apiJson<User>('POST', '/api/login/2fa', input)
}

/** Finishes a sign-in: a code, a recovery code or a passkey; the session starts on success. */
export function useSignInStep() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: secondFactor,
    onSuccess: async (user) => {
      await setSessionUser(queryClient, user)
      toast({ title: 'Login successful', description: `Welcome back, ${user.username}!` })
    },
    onError: (error) => {
      toast({
        title: 'Login failed',
        description: passkeyProblem(error) ?? serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      })
    },
  })
}

/**
 * GET /api/auth/providers: the single sign-on button to show, and who may
 * make a new account (the instance's sign-up policy). Whether to
 * offer Google is read in one place, useGoogleSignIn (lib/white-label),
 * from the site's config every page has already fetched.
 */
export function useSignInProviders() {
  return useQuery({
    queryKey: ['/api/auth/providers'],
    queryFn: getQueryFn<{ oidc: { name: string } | null; saml?: boolean; signup?: 'open' | 'invite' | 'closed'; signupDomains?: string[] }>({ on401: 'throw' }),
    staleTime: Infinity,
  })
}

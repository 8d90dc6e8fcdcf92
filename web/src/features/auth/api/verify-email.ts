import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'
import { setSessionUser } from '@/lib/auth'
import { isChallenge, type SignInAnswer } from './second-factor'

/** POST /api/verify-email: proves the address, ends the account's other sessions and signs this browser in. */
export function verifyEmail(token: string) {
  return apiJson<SignInAnswer>('POST', '/api/verify-email', { token })
}

export function useVerifyEmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async (answer) => {
      if (!isChallenge(answer)) await setSessionUser(queryClient, answer)
    },
  })
}

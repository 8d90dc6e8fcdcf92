import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'

/** POST /api/verify-email: proves the address, ends the account's other sessions and signs this browser in. */
export function verifyEmail(token: string) {
  return apiJson<User>('POST', '/api/verify-email', { token })
}

export function useVerifyEmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  })
}

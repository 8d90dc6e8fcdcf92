import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson, serverMessage } from '@/lib/api-client'
import { userQueryKey } from '@/lib/auth'
import { toast } from '@/lib/use-toast'
import type { ChangePasswordInput } from '../schemas'

export function changePassword(input: ChangePasswordInput) {
  return apiJson<{ message: string }>('POST', '/api/change-password', input)
}

/** POST /api/change-password; the server ends the account's other sessions before 'Password updated'. */
export function useChangePassword(onDone: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: changePassword,
    onSuccess: async () => {
      // hasPassword may have just become true (a first password).
      await queryClient.invalidateQueries({ queryKey: userQueryKey })
      toast({ title: 'Password updated' })
      onDone()
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to update password. Please try again.',
        variant: 'destructive',
      })
    },
  })
}

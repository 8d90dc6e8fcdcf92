import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { apiRequest, serverMessage } from '@/lib/api-client'
import { userQueryKey } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

/** Spec 02 §9: the return to / follows the success toast after 2 seconds. */
export const DELETED_REDIRECT_DELAY = 2000

export function deleteAccount() {
  return apiRequest('POST', '/api/delete-account')
}

/** POST /api/delete-account, then 'Account Deleted', signed out, and / after 2 seconds. */
export function useDeleteAccount() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      toast({ title: 'Account Deleted', description: 'Your account has been successfully deleted. You will now be logged out.' })
      setTimeout(() => {
        // Leave the signed-in page first, or it would send the visitor to /auth.
        void Promise.resolve(navigate('/', { replace: true })).then(() => {
          queryClient.setQueryData(userQueryKey, null)
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] })
        })
      }, DELETED_REDIRECT_DELAY)
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to delete account. Please try again.',
        variant: 'destructive',
      })
    },
  })
}

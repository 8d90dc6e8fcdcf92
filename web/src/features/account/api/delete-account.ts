import { useMutation } from '@tanstack/react-query'
import { apiRequest, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

/** Spec 02 §9: the return to / follows the success toast after 2 seconds. */
export const DELETED_REDIRECT_DELAY = 2000

export function deleteAccount() {
  return apiRequest('POST', '/api/delete-account')
}

/** POST /api/delete-account, then 'Account Deleted', signed out, and / after 2 seconds. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      toast({ title: 'Account Deleted', description: 'Your account has been successfully deleted. You will now be logged out.' })
      // A fresh load of / (the server has ended the session and cleared its
      // cookie): clearing the user in place would let the login-only page
      // send the visitor to /auth first, and every cached query would go too.
      setTimeout(() => window.location.replace('/'), DELETED_REDIRECT_DELAY)
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

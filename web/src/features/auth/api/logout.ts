import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, serverMessage } from '@/lib/api-client'
import { setSessionUser } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export async function logout() {
  await apiRequest('POST', '/api/logout')
}

export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSuccess: async () => {
      await setSessionUser(queryClient, null)
      toast({ title: 'Logged out', description: 'You have been successfully logged out' })
      // The saved-code lists belonged to the session that just ended.
      await Promise.all([['/api/codes'], ['/api/qrcodes']].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    },
    onError: (error) => {
      toast({
        title: 'Logout failed',
        description: serverMessage(error) ?? error.message,
        variant: 'destructive',
      })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson, serverMessage } from '@/lib/api-client'
import { setSessionUser, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export interface ActivateTrialAnswer {
  message: string
  user?: User
}

export function activateTrial(email: string) {
  return apiJson<ActivateTrialAnswer>('POST', '/api/activate-trial', { email })
}

/** POST /api/activate-trial with the spec's toasts; a returned user becomes the session's. */
export function useActivateTrial() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: activateTrial,
    onSuccess: async (answer) => {
      if (answer?.user) await setSessionUser(queryClient, answer.user)
      void queryClient.invalidateQueries({ queryKey: ['/api/trial-status'] })
      toast({ title: 'Free Trial Activated!', description: '3 days of premium features unlocked.' })
    },
    onError: (error) => {
      toast({
        title: 'Activation Failed',
        description: serverMessage(error) ?? 'Failed to activate free trial. Please try again.',
        variant: 'destructive',
      })
    },
  })
}

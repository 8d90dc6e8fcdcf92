import { useMutation } from '@tanstack/react-query'
import { apiJson, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

export function resendVerification() {
  return apiJson<{ message: string }>('POST', '/api/resend-verification')
}

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: (answer) => toast({ title: 'Check your email', description: answer.message }),
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to send the link. Please try again.',
        variant: 'destructive',
      })
    },
  })
}

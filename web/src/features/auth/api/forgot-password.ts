import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

export const forgotPasswordInputSchema = z.object({ email: z.email('Invalid email address') })

export type ForgotPasswordInput = z.infer<typeof forgotPasswordInputSchema>

/** POST /api/forgot-password: the same answer whether or not the address has an account. */
export function forgotPassword(input: ForgotPasswordInput) {
  return apiJson<{ message: string }>('POST', '/api/forgot-password', input)
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: forgotPassword,
    onError: (error) => {
      toast({
        title: 'Could not send the link',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      })
    },
  })
}

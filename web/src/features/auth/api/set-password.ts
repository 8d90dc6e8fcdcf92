import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { setSessionUser } from '@/lib/auth'
import { toast } from '@/lib/use-toast'
import { isChallenge, type SignInAnswer } from './second-factor'

// The page a trial account's e-mailed link opens: the same rules as the
// change-password form (spec 02 §5), with the token from the link.
export const setPasswordInputSchema = z
  .object({
    password: z.string().min(6, 'Password must be at least 6 characters'),
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })

export type SetPasswordInput = z.infer<typeof setPasswordInputSchema>

export function setPassword(token: string, input: SetPasswordInput) {
  return apiJson<SignInAnswer>('POST', '/api/set-password', { token, password: input.password })
}

export function useSetPassword(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SetPasswordInput) => setPassword(token, input),
    onSuccess: async (user) => {
      if (isChallenge(user)) {
        toast({ title: 'Password set', description: 'Now confirm it is you with your second factor.' })
        return
      }
      await setSessionUser(queryClient, user)
      toast({ title: 'Password set', description: `Welcome, ${user.username}!` })
    },
    onError: (error) => {
      toast({
        title: 'Could not set your password',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      })
    },
  })
}

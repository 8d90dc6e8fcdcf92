import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { setSessionUser } from '@/lib/auth'
import { toast } from '@/lib/use-toast'
import { isChallenge, type SignInAnswer } from './second-factor'

export const loginInputSchema = z.object({
  username: z.string().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
})

export type LoginInput = z.infer<typeof loginInputSchema>

/** The user, or with a second factor on, the challenge (no session yet: see second-factor.ts). */
export function login(input: LoginInput) {
  return apiJson<SignInAnswer>('POST', '/api/login', input)
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: async (user) => {
      if (isChallenge(user)) return // the form asks for the second factor
      await setSessionUser(queryClient, user)
      toast({ title: 'Login successful', description: `Welcome back, ${user.username}!` })
    },
    onError: (error) => {
      toast({
        title: 'Login failed',
        description: serverMessage(error) ?? 'Invalid username or password',
        variant: 'destructive',
      })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export const loginInputSchema = z.object({
  username: z.string().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
})

export type LoginInput = z.infer<typeof loginInputSchema>

export function login(input: LoginInput) {
  return apiJson<User>('POST', '/api/login', input)
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKey, user)
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

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export const registerInputSchema = z.object({
  email: z.email('Invalid email address'),
  password: z.string().min(6, 'Password must be at least 6 characters'),
})

export type RegisterInput = z.infer<typeof registerInputSchema>

/** The account fields the server expects: the e-mail doubles as the username. */
export function registerPayload({ email, password }: RegisterInput) {
  return { username: email, firstName: '', lastName: '', email, password, confirmPassword: password }
}

export function register(input: RegisterInput) {
  return apiJson<User>('POST', '/api/register', registerPayload(input))
}

export function useRegister() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKey, user)
      toast({ title: 'Registration successful', description: `Welcome, ${user.username}!` })
    },
    onError: (error) => {
      toast({
        title: 'Registration failed',
        description: serverMessage(error) ?? 'Failed to create account',
        variant: 'destructive',
      })
    },
  })
}

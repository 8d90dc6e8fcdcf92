import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiJson, serverMessage } from '@/lib/api-client'
import { setSessionUser, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export const registerInputSchema = z.object({
  email: z.email('Invalid email address'),
  password: z.string().min(6, 'Password must be at least 6 characters'),
})

/** What the sign-up form asks for. */
export type RegisterFields = z.infer<typeof registerInputSchema>

export type RegisterInput = RegisterFields & {
  /** A pending invitation's token: the sign-up then confirms the address it was mailed to. */
  invitationToken?: string
}

/** The account fields the server expects: the e-mail doubles as the username. */
export function registerPayload({ email, password, invitationToken }: RegisterInput) {
  return { username: email, firstName: '', lastName: '', email, password, confirmPassword: password, ...(invitationToken && { invitationToken }) }
}

/**
 * The new account, or, when the e-mail already has an account nobody has
 * proven (or one without a password), only the server's message: a link to
 * claim it went to that address and nobody is signed in.
 */
export type RegisterAnswer = User | { message: string }

export function register(input: RegisterInput) {
  return apiJson<RegisterAnswer>('POST', '/api/register', registerPayload(input))
}

function isUser(answer: RegisterAnswer): answer is User {
  return 'id' in answer
}

export function useRegister() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: register,
    onSuccess: async (answer) => {
      if (!isUser(answer)) {
        toast({ title: 'Check your email', description: answer.message })
        return
      }
      await setSessionUser(queryClient, answer)
      toast({ title: 'Registration successful', description: `Welcome, ${answer.username}!` })
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

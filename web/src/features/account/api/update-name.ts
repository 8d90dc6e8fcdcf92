import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson, serverMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { toast } from '@/lib/use-toast'

export interface NameInput {
  firstName: string
  lastName: string
}

/** PUT /api/update-name with the trimmed names (spec 02 §5). */
export function updateName({ firstName, lastName }: NameInput) {
  return apiJson<User>('PUT', '/api/update-name', { firstName: firstName.trim(), lastName: lastName.trim() })
}

/** Updates the name, then refetches the current user (spec 02 §7) with the toasts of spec 02 §8. */
export function useUpdateName() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateName,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userQueryKey })
      toast({ title: 'Name Updated', description: 'Your name has been successfully updated.' })
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to update name. Please try again.',
        variant: 'destructive',
      })
    },
  })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest, getQueryFn, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { createPasskey, passkeyProblem } from '@/lib/webauthn'
import { twoFactorQueryKey } from './two-factor'

export interface Passkey {
  id: number
  name: string
  rpId: string
  createdAt: string
  lastUsedAt: string | null
}

const passkeysQueryKey = ['/api/webauthn/credentials']

export function usePasskeys() {
  return useQuery({ queryKey: passkeysQueryKey, queryFn: getQueryFn<Passkey[]>({ on401: 'throw' }) })
}

/** Registers a passkey of this browser or device: begin, the browser's dialog, finish. */
async function registerPasskey(name: string) {
  const options = await apiJson<{ publicKey: Record<string, unknown> }>('POST', '/api/webauthn/register/begin', { name })
  return apiJson<Passkey>('POST', '/api/webauthn/register/finish', await createPasskey(options))
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: async (passkey) => {
      await queryClient.invalidateQueries({ queryKey: passkeysQueryKey })
      await queryClient.invalidateQueries({ queryKey: twoFactorQueryKey })
      toast({ title: 'Passkey added', description: passkey.name })
    },
    onError: (error) =>
      toast({
        title: 'Could not add the passkey',
        description: passkeyProblem(error) ?? serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      }),
  })
}

export function useDeletePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/webauthn/credentials/${id}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysQueryKey })
      toast({ title: 'Passkey removed' })
    },
    onError: (error) => toast({ title: 'Could not remove the passkey', description: serverMessage(error), variant: 'destructive' }),
  })
}

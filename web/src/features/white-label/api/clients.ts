import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** A white-label client as GET /api/white-label/clients lists it. */
export interface Client {
  id: number
  name: string
  customDomain: string
  subdomain: string
  logoUrl: string
  primaryColor: string
  secondaryColor: string
  customFavicon: string
  removeSquarelyBranding: boolean
  customCSS: string
  /** prefix…last4, or '' before the first rotation. */
  apiKeyMasked: string
  /** The whole key: only in the answer of a rotation. */
  apiKey?: string
  isActive: boolean
  siteUrl: string
}

/** What the create and edit dialogs send; empty optional fields are left out (spec 02 §5). */
export interface ClientInput {
  name: string
  customDomain?: string
  subdomain?: string
  logoUrl?: string
  primaryColor?: string
  secondaryColor?: string
  customFavicon?: string
  removeSquarelyBranding: boolean
  customCSS?: string
  isActive: boolean
}

export const clientsQueryKey = ['/api/white-label/clients']

export function useClients() {
  return useQuery<Client[]>({ queryKey: clientsQueryKey })
}

function useClientMutation<T>(run: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
  })
}

export function useCreateClient() {
  return useClientMutation((input: ClientInput) => apiJson<Client>('POST', '/api/white-label/clients', input))
}

export function useUpdateClient() {
  return useClientMutation(({ id, input }: { id: number; input: ClientInput }) =>
    apiJson<Client>('PUT', `/api/white-label/clients/${id}`, input),
  )
}

export function useDeleteClient() {
  return useClientMutation((id: number) => apiRequest('DELETE', `/api/white-label/clients/${id}`))
}

export function useRotateClientKey() {
  return useClientMutation((id: number) => apiJson<Client>('POST', `/api/white-label/clients/${id}/rotate-key`))
}

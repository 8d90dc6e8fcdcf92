import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/**
 * A workspace's saved design as GET /api/brand-kits lists it (docs/API.md
 * "Brand kits"): the style fields flat, as a saved code has them.
 */
export type BrandKit = {
  id: number
  name: string
  logoId: number | null
  logoFileName: string
  isDefault: boolean
  fgColor: string
  bgColor: string
  createdAt: string
  updatedAt: string
} & Record<string, unknown>

/** A kit to save: its name, the style fields as the generator sends them, and a logo. */
export type BrandKitInput = Record<string, unknown> & { name?: string; logoId?: number | null; isDefault?: boolean }

export const brandKitsKey = ['/api/brand-kits']

export function useBrandKits(enabled = true) {
  return useQuery<BrandKit[]>({ queryKey: brandKitsKey, enabled })
}

export function useCreateBrandKit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (kit: BrandKitInput) => apiJson<BrandKit>('POST', '/api/brand-kits', kit),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: brandKitsKey }),
  })
}

/** Changes the members sent; the others stay (PUT is partial for kits). */
export function useUpdateBrandKit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...change }: BrandKitInput & { id: number }) => apiJson<BrandKit>('PUT', `/api/brand-kits/${id}`, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: brandKitsKey }),
  })
}

export function useDeleteBrandKit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/brand-kits/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: brandKitsKey }),
  })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'
import type { UtmValues } from '../lib/utm'

/** A workspace's saved UTM parameters (GET /api/utm-presets). */
export interface UtmPreset extends Required<UtmValues> {
  id: number
  name: string
}

export const utmPresetsKey = ['/api/utm-presets']

export function useUtmPresets() {
  return useQuery<UtmPreset[]>({ queryKey: utmPresetsKey })
}

/** A change to the presets: their list is read again either way. */
function usePresetMutation<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: call, onSettled: () => queryClient.invalidateQueries({ queryKey: utmPresetsKey }) })
}

export function useSaveUtmPreset() {
  return usePresetMutation((preset: { name: string } & UtmValues) => apiJson<UtmPreset>('POST', '/api/utm-presets', preset))
}

export function useDeleteUtmPreset() {
  return usePresetMutation((id: number) => apiRequest('DELETE', `/api/utm-presets/${id}`))
}

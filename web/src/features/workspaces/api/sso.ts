import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, getQueryFn } from '@/lib/api-client'
import type { Role } from '@/lib/workspace'

/** A team workspace's SAML single sign-on (GET/PUT/DELETE /api/workspaces/{id}/sso, owners). */
export type SSOSettings = {
  configured: boolean
  idpEntityId?: string
  idpMetadataUrl?: string
  roleMapping: Record<string, Role>
  defaultRole?: Role
  enforceSso: boolean
  allowIdpInitiated: boolean
  breakGlassUserId: number | null
  spEntityId: string
  spMetadataUrl: string
  acsUrl: string
  loginUrl: string
}

export type SSOInput = {
  idpMetadataXml?: string
  idpMetadataUrl?: string
  roleMapping: Record<string, Role>
  defaultRole: Role
  enforceSso: boolean
  allowIdpInitiated: boolean
}

const ssoKey = (id: number) => [`/api/workspaces/${id}/sso`]

export function useSSO(id: number) {
  return useQuery({ queryKey: ssoKey(id), queryFn: getQueryFn<SSOSettings>({ on401: 'throw' }) })
}

/** Saves (input) or, with null, removes the workspace's single sign-on. */
export function useSaveSSO(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SSOInput | null) =>
      input ? apiJson<SSOSettings>('PUT', `/api/workspaces/${id}/sso`, input) : apiJson<null>('DELETE', `/api/workspaces/${id}/sso`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoKey(id) }),
  })
}

/** Makes the workspace's SCIM token (shown once; it replaces the one before). */
export function useNewSCIMToken(id: number) {
  return useMutation({ mutationFn: () => apiJson<{ token: string; baseUrl: string }>('POST', `/api/workspaces/${id}/scim-token`) })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'
import type { Role } from '@/lib/workspace'

/** GET /api/workspaces items: the workspaces the user belongs to. */
export interface Workspace {
  id: number
  name: string
  role: Role
  personal: boolean
  /** Members need two-factor authentication to open its codes (issue 27). */
  require2fa?: boolean
  /** The caller gets its alerts by e-mail (issue 24); only owners and admins are mailed. */
  alertEmails?: boolean
  /** Verified addresses at the domain join with the role when they sign in (issue 33); null: off. */
  autoJoin?: { domain: string; role: Role } | null
}

export interface Member {
  userId: number
  email: string
  role: Role
  joinedAt: string
}

export interface Invitation {
  id: number
  email: string
  role: Role
  createdAt?: string
  expiresAt?: string
}

export const workspacesKey = ['/api/workspaces']
export const membersKey = (workspaceId: number) => ['/api/workspaces', String(workspaceId), 'members']
export const invitationsKey = (workspaceId: number) => ['/api/workspaces', String(workspaceId), 'invitations']

export function useWorkspaces() {
  return useQuery<Workspace[]>({ queryKey: workspacesKey })
}

/**
 * Everything on screen belongs to the active workspace: after a switch (or
 * joining one) every query is fetched again, the user first, since it names
 * the workspace and the role.
 */
function useRefetchAll() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries()
}

export function useActivateWorkspace() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/workspaces/${id}/activate`),
    onSuccess: refetchAll,
  })
}

/** Creates a team workspace (the caller is its owner) and makes it the active one. */
export function useCreateWorkspace() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: async (name: string) => {
      const created = await apiJson<Workspace>('POST', '/api/workspaces', { name })
      await apiRequest('POST', `/api/workspaces/${created.id}/activate`)
      return created
    },
    onSuccess: refetchAll,
  })
}

export function useRenameWorkspace() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => apiJson<Workspace>('PATCH', `/api/workspaces/${id}`, { name }),
    onSuccess: refetchAll,
  })
}

/** Turns the workspace's two-factor requirement on or off (owners, with 2FA themselves to turn it on). */
export function useRequire2FA() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: ({ id, require2fa }: { id: number; require2fa: boolean }) => apiJson<Workspace>('PATCH', `/api/workspaces/${id}`, { require2fa }),
    onSuccess: refetchAll,
  })
}

/** Sets (domain and role) or, with null, turns off the workspace's domain capture (owners). */
export function useAutoJoin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, autoJoin }: { id: number; autoJoin: { domain: string; role: Role } | null }) =>
      autoJoin ? apiJson<Workspace>('PUT', `/api/workspaces/${id}/auto-join`, autoJoin) : apiJson<Workspace>('DELETE', `/api/workspaces/${id}/auto-join`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspacesKey }),
  })
}

/** Turns the caller's alert e-mails of the workspace on or off. */
export function useAlertEmails() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => apiJson<Workspace>('PUT', `/api/workspaces/${id}/alert-emails`, { enabled }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspacesKey }),
  })
}

export function useDeleteWorkspace() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/workspaces/${id}`),
    onSuccess: refetchAll,
  })
}

export function useMembers(workspaceId: number) {
  return useQuery<Member[]>({ queryKey: membersKey(workspaceId) })
}

export function useInvitations(workspaceId: number, enabled: boolean) {
  return useQuery<Invitation[]>({ queryKey: invitationsKey(workspaceId), enabled })
}

/** A change to the members or invitations: both lists (and the audit log) are read again. */
function useMembersMutation<V>(workspaceId: number, call: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['/api/workspaces', String(workspaceId)] }),
  })
}

export function useInvite(workspaceId: number) {
  return useMembersMutation(workspaceId, (input: { email: string; role: Role }) =>
    apiJson<Invitation>('POST', `/api/workspaces/${workspaceId}/invitations`, input),
  )
}

export function useRevokeInvitation(workspaceId: number) {
  return useMembersMutation(workspaceId, (invitationId: number) => apiRequest('DELETE', `/api/workspaces/${workspaceId}/invitations/${invitationId}`))
}

export function useChangeRole(workspaceId: number) {
  return useMembersMutation(workspaceId, ({ userId, role }: { userId: number; role: Role }) =>
    apiJson<Member>('PATCH', `/api/workspaces/${workspaceId}/members/${userId}`, { role }),
  )
}

/** Removes a member; removing yourself is leaving, after which the personal workspace is active again. */
export function useRemoveMember(workspaceId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: number) => apiRequest('DELETE', `/api/workspaces/${workspaceId}/members/${userId}`),
    onSettled: () => queryClient.invalidateQueries(),
  })
}

/** Joins the workspace of a mailed invitation; the server makes it the active one and answers it. */
/** GET /api/invitations/preview: what an invitation's link is for, before sign-in. */
export interface InvitationPreview {
  workspaceName: string
  role: Role
  /** The sender's name or address; "" once their account is gone. */
  invitedBy: string
  expiresAt: string
}

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: () => apiJson<InvitationPreview>('GET', `/api/invitations/preview?token=${encodeURIComponent(token)}`),
    enabled: token !== '',
    retry: false,
  })
}

export function useAcceptInvitation() {
  const refetchAll = useRefetchAll()
  return useMutation({
    mutationFn: (token: string) => apiJson<Workspace>('POST', '/api/invitations/accept', { token }),
    onSuccess: refetchAll,
  })
}

import { useUser } from './auth'

/** A member's role in a workspace (issue 22), strongest first. */
export type Role = 'owner' | 'admin' | 'editor' | 'viewer'

export const roles: Role[] = ['owner', 'admin', 'editor', 'viewer']

export const roleLabels: Record<Role, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', viewer: 'Viewer' }

/** The session's active workspace, as GET /api/user carries it. */
export interface ActiveWorkspace {
  id: number
  name: string
  role: Role
  /** Members need two-factor authentication to open its codes (issue 27). */
  require2fa?: boolean
}

/**
 * What a role may do, to hide what the server would refuse. The server
 * decides (every write a role may not make answers 403); this only spares
 * the user buttons that cannot work.
 */
const abilities = {
  /** Create, edit, pause, restyle, delete codes; tags and folders; uploads; bulk. */
  editCodes: ['owner', 'admin', 'editor'],
  /** Invite, change roles, remove members (admins: not owners); see the audit log; rename the workspace. */
  manageMembers: ['owner', 'admin'],
  /** Create and revoke the workspace's API keys. */
  manageKeys: ['owner', 'admin'],
  /** Add, verify and delete the workspace's custom domains. */
  manageDomains: ['owner', 'admin'],
  /** Move codes to another workspace (admin or owner there too: the dialog lists only those). */
  moveCodes: ['owner', 'admin'],
  /** Delete the workspace; make or unmake owners. */
  own: ['owner'],
} satisfies Record<string, Role[]>

export type Ability = keyof typeof abilities

export function can(role: Role | undefined, ability: Ability): boolean {
  return role !== undefined && (abilities[ability] as Role[]).includes(role)
}

/** The active workspace of the signed-in user (undefined while loading or signed out). */
export function useActiveWorkspace(): ActiveWorkspace | undefined {
  return useUser().data?.workspace
}

/** Whether the signed-in user may do this in the active workspace. */
export function useCan(ability: Ability): boolean {
  return can(useActiveWorkspace()?.role, ability)
}

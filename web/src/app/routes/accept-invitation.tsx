import { useLogout } from '@/features/auth/api/logout'
import { AcceptInvitationPage } from '@/features/workspaces/routes/accept-invitation-page'

/** The invitation page with sign-out from the auth feature, for an invitation meant for another address. */
export function AcceptInvitationRoute() {
  const logout = useLogout()
  return <AcceptInvitationPage onSignOut={() => logout.mutate()} />
}

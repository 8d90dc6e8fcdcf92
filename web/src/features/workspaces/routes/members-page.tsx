import { Link, useSearchParams } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { can, useActiveWorkspace, type ActiveWorkspace } from '@/lib/workspace'
import { AlertEmailSetting } from '../components/alert-email-setting'
import { AutoJoinSetting } from '../components/auto-join-setting'
import { InvitationList } from '../components/invitation-list'
import { InviteCard } from '../components/invite-card'
import { MemberList } from '../components/member-list'
import { SCIMSetting } from '../components/scim-setting'
import { SSOSetting } from '../components/sso-setting'
import { TwoFactorSetting } from '../components/two-factor-setting'
import { WorkspacePage } from '../components/workspace-page'
import { WorkspaceSettings } from '../components/workspace-settings'

/** /workspace/members: who is in the active workspace and with what role; managers invite, change roles and remove. */
export function MembersPage() {
  usePageTitle(siteTitle('Members'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  return (
    <WorkspacePage workspace={workspace} title="Members">
      {/* Keyed by workspace: a switch starts its forms afresh. */}
      <Members key={workspace.id} workspace={workspace} />
    </WorkspacePage>
  )
}

function Members({ workspace }: { workspace: ActiveWorkspace }) {
  const manager = can(workspace.role, 'manageMembers')
  const [params] = useSearchParams()
  const people = (
    <div className="grid gap-6">
      {manager && <InviteCard workspace={workspace} />}
      <MemberList workspace={workspace} />
      {manager && <InvitationList workspace={workspace} />}
      {manager && <AlertEmailSetting workspace={workspace} />}
      <WorkspaceSettings workspace={workspace} />
    </div>
  )
  if (!can(workspace.role, 'own')) return people
  // Owners also get the sign-in rules, on their own view (?tab=security):
  // second factor, domain capture, SSO, SCIM. Links, not a tab widget, so
  // the view has an address and no extra code.
  const security = params.get('tab') === 'security'
  const view = (active: boolean) =>
    cn('rounded-md px-3 py-1.5 text-sm font-medium', active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900')
  return (
    <div className="grid gap-4">
      <nav aria-label="Members sections" className="inline-flex w-fit gap-1 rounded-lg bg-slate-100 p-1">
        <Link to="/workspace/members" replace aria-current={security ? undefined : 'page'} className={view(!security)}>
          Members
        </Link>
        <Link to="/workspace/members?tab=security" replace aria-current={security ? 'page' : undefined} className={view(security)}>
          Security
        </Link>
      </nav>
      {security ? (
        <div className="grid gap-6">
          <TwoFactorSetting workspace={workspace} />
          <AutoJoinSetting workspace={workspace} />
          <SSOSetting workspace={workspace} />
          <SCIMSetting workspace={workspace} />
        </div>
      ) : (
        people
      )}
    </div>
  )
}

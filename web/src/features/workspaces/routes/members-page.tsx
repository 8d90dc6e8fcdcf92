import { useSearchParams } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
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
  const [params, setParams] = useSearchParams()
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
  // Owners also get the sign-in rules (?tab=security links there): second factor, domain capture, SSO, SCIM.
  const tab = params.get('tab') === 'security' ? 'security' : 'members'
  return (
    <Tabs value={tab} onValueChange={(value) => setParams(value === 'security' ? { tab: value } : {}, { replace: true })}>
      <TabsList>
        <TabsTrigger value="members">Members</TabsTrigger>
        <TabsTrigger value="security">Security</TabsTrigger>
      </TabsList>
      <TabsContent value="members">{people}</TabsContent>
      <TabsContent value="security">
        <div className="grid gap-6">
          <TwoFactorSetting workspace={workspace} />
          <AutoJoinSetting workspace={workspace} />
          <SSOSetting workspace={workspace} />
          <SCIMSetting workspace={workspace} />
        </div>
      </TabsContent>
    </Tabs>
  )
}

import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function AccountSettingsPage() {
  usePageTitle(siteTitle('Account Settings'))
  return <PagePlaceholder title="Account Settings">Editing your name and deleting your account are on their way.</PagePlaceholder>
}

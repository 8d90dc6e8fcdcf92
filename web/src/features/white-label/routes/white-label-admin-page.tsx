import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function WhiteLabelAdminPage() {
  usePageTitle(siteTitle('White Label Clients'))
  return <PagePlaceholder title="White Label Clients">Managing white-label clients is coming soon.</PagePlaceholder>
}

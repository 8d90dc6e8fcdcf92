import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function TestPage() {
  usePageTitle(siteTitle('Test'))
  return <PagePlaceholder title="Test">Nothing to see here yet.</PagePlaceholder>
}

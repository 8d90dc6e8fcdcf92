import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function FeaturesPage() {
  usePageTitle(siteTitle('Features'))
  return <PagePlaceholder title="Features">A full tour of what Squarely can do is coming soon.</PagePlaceholder>
}

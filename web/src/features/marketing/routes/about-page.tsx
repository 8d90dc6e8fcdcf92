import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function AboutPage() {
  usePageTitle(siteTitle('About'))
  return <PagePlaceholder title="About Squarely">Our story is being written; check back soon.</PagePlaceholder>
}

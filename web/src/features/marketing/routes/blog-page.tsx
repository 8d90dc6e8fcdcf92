import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function BlogPage() {
  usePageTitle(siteTitle('Blog'))
  return <PagePlaceholder title="Blog">Articles about QR codes and marketing are coming soon.</PagePlaceholder>
}

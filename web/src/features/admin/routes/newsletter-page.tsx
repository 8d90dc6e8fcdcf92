import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function NewsletterPage() {
  usePageTitle(siteTitle('Newsletter Manager'))
  return <PagePlaceholder title="Newsletter Manager">Newsletter and notification mailings are coming soon.</PagePlaceholder>
}

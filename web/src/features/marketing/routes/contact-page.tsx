import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function ContactPage() {
  usePageTitle(siteTitle('Contact'))
  return <PagePlaceholder title="Contact Us">A contact form is on its way. Our support hours are Mon-Fri 9AM-6PM EST.</PagePlaceholder>
}

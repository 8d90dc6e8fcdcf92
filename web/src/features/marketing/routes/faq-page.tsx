import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function FaqPage() {
  usePageTitle(siteTitle('FAQ'))
  return <PagePlaceholder title="Frequently Asked Questions">Answers to the questions we hear most are on their way.</PagePlaceholder>
}

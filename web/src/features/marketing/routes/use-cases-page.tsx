import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function UseCasesPage() {
  usePageTitle(siteTitle('Use Cases'))
  return <PagePlaceholder title="Use Cases">Stories of how restaurants, shops and events use QR codes are coming soon.</PagePlaceholder>
}

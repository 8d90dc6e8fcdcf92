import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function BulkGenerationPage() {
  usePageTitle(siteTitle('Bulk Generation'))
  return <PagePlaceholder title="Bulk QR Code Generation">Generating many QR codes at once is coming soon.</PagePlaceholder>
}

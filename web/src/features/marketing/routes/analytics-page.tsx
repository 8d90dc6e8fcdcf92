import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function AnalyticsPage() {
  usePageTitle(siteTitle('QR Code Analytics'))
  return <PagePlaceholder title="QR Code Analytics & Tracking">A closer look at scan tracking and analytics is coming soon.</PagePlaceholder>
}

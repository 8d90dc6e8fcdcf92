import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function TemplatesPage() {
  usePageTitle(siteTitle('Templates'))
  return <PagePlaceholder title="QR Code Templates">Ready-made templates for menus, business cards, Wi-Fi and more are coming soon.</PagePlaceholder>
}

import { PagePlaceholder } from '@/components/page-placeholder'
import { usePageTitle } from '@/lib/use-page-title'

export function SubscribePage() {
  usePageTitle('QR Code Pricing, Subscription Plans')
  return <PagePlaceholder title="Choose Your Plan">Plans and online checkout are coming soon.</PagePlaceholder>
}

import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function PaymentPage() {
  usePageTitle(siteTitle('Checkout'))
  return <PagePlaceholder title="Checkout">Card payments for payment QR codes are coming soon.</PagePlaceholder>
}

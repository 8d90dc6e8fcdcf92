import { PagePlaceholder } from '@/components/page-placeholder'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function PaymentSuccessPage() {
  usePageTitle(siteTitle('Payment Successful'))
  return <PagePlaceholder title="Payment Successful!">Payment confirmations are coming soon.</PagePlaceholder>
}

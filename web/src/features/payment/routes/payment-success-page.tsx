import { CheckCircle2, Clock, XCircle } from 'lucide-react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { formatCents, useBillingConfig } from '@/lib/billing'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { usePaymentIntentStatus } from '../api/payment'
import { CheckoutShell } from '../components/checkout-shell'

/** What each status Stripe reports means to the buyer. */
function outcome(status: string | undefined) {
  switch (status) {
    case 'succeeded':
      return { title: 'Payment Successful!', icon: <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />, text: 'Thank you: your payment went through.' }
    case 'processing':
      return { title: 'Payment Processing', icon: <Clock className="size-12 text-amber-600" aria-hidden="true" />, text: 'Your payment is being processed. The seller is told once it clears.' }
    default:
      return { title: 'Payment Not Completed', icon: <XCircle className="size-12 text-red-600" aria-hidden="true" />, text: 'This payment did not go through. No money was taken.' }
  }
}

/**
 * /payment-success?payment_intent=…: the outcome as Stripe reports it to the
 * server. The redirect_status in the query is not trusted: anyone can type it.
 */
export function PaymentSuccessPage() {
  usePageTitle(siteTitle('Payment Successful'))
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const id = params.get('payment_intent')
  const config = useBillingConfig()
  const status = usePaymentIntentStatus(id, config.data?.enabled === true)

  if (config.isLoading || status.isLoading) return <Spinner />
  let result
  if (!id) {
    result = { title: 'No payment to show', icon: null, text: 'This page shows a payment once the checkout sends you here.' }
  } else if (config.data?.enabled !== true) {
    result = { title: 'Payments are not available yet.', icon: null, text: '' }
  } else if (status.error || !status.data) {
    result = { title: 'Payment Not Found', icon: <XCircle className="size-12 text-red-600" aria-hidden="true" />, text: 'We could not find this payment.' }
  } else {
    result = outcome(status.data.status)
  }

  return (
    <CheckoutShell>
      <Card className="text-center" data-testid="payment-result" data-status={status.data?.status ?? ''}>
        <CardHeader className="items-center">
          {result.icon}
          <h1 className="text-2xl font-semibold text-slate-900">{result.title}</h1>
        </CardHeader>
        <CardContent className="grid justify-items-center gap-5">
          {result.text && <p className="text-slate-600">{result.text}</p>}
          {status.data && (
            <p className="text-sm text-slate-500">
              {formatCents(status.data.amount)} · Stripe status: <span data-testid="payment-status">{status.data.status}</span>
            </p>
          )}
          <div className="flex gap-3">
            <Button variant="outline" onClick={() => void navigate(-1)}>
              Go Back
            </Button>
            <Button asChild>
              <Link to="/">Return Home</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </CheckoutShell>
  )
}

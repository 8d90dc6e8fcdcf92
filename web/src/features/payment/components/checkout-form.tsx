import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { apiJson } from '@/lib/api-client'
import { formatCents } from '@/lib/billing'
import { toast } from '@/lib/use-toast'
import type { PaymentIntentStatus } from '../api/payment'

/**
 * The card form (spec 02 §4 "Payment form"): idle, processing, then success,
 * failure or processing. Stripe confirms the card and redirects only when the
 * card needs it (3-D Secure); both roads end on /payment-success. Success is
 * announced only once the server has read the payment's status from Stripe
 * (GET /api/payment-intent/{id}), never on the browser's word alone.
 */
export function CheckoutForm({ amount }: { amount: number }) {
  const stripe = useStripe()
  const elements = useElements()
  const navigate = useNavigate()
  const [processing, setProcessing] = useState(false)

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!stripe || !elements) return
    setProcessing(true)
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/payment-success` },
        redirect: 'if_required',
      })
      if (error) {
        toast({ title: 'Payment failed', description: error.message ?? 'An error occurred with your payment', variant: 'destructive' })
        return
      }
      const confirmed = paymentIntent
        ? await apiJson<PaymentIntentStatus>('GET', `/api/payment-intent/${encodeURIComponent(paymentIntent.id)}`)
        : undefined
      if (confirmed?.status === 'succeeded') {
        toast({ title: 'Payment successful!' })
        void navigate(`/payment-success?payment_intent=${encodeURIComponent(confirmed.id)}`)
      } else if (confirmed?.status === 'processing') {
        toast({ title: 'Payment processing' })
        void navigate(`/payment-success?payment_intent=${encodeURIComponent(confirmed.id)}`)
      } else {
        toast({ title: 'Payment error', description: 'There was an error processing your payment', variant: 'destructive' })
      }
    } catch {
      toast({ title: 'Payment error', description: 'There was an error processing your payment', variant: 'destructive' })
    } finally {
      setProcessing(false)
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-5" data-testid="checkout-form">
      <PaymentElement />
      <Button type="submit" size="lg" disabled={!stripe || !elements || processing}>
        {processing ? 'Processing...' : `Pay ${formatCents(amount)}`}
      </Button>
    </form>
  )
}

import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { formatCents } from '@/lib/billing'
import { toast } from '@/lib/use-toast'

/**
 * The card form (spec 02 §4 "Payment form"): idle, processing, then success,
 * failure or processing. Stripe confirms the card and redirects only when the
 * card needs it (3-D Secure); both roads end on /payment-success.
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
      } else if (paymentIntent?.status === 'succeeded') {
        toast({ title: 'Payment successful!' })
        void navigate(`/payment-success?payment_intent=${encodeURIComponent(paymentIntent.id)}`)
      } else if (paymentIntent?.status === 'processing') {
        toast({ title: 'Payment processing' })
        void navigate(`/payment-success?payment_intent=${encodeURIComponent(paymentIntent.id)}`)
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

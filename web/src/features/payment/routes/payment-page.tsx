import { Elements } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe } from '@stripe/stripe-js'
import { useMemo, type ReactNode } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { ensureStripeAllowed, formatCents, useBillingConfig } from '@/lib/billing'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { usePaymentIntent, usePaymentProduct } from '../api/payment'
import { CheckoutForm } from '../components/checkout-form'
import { CheckoutShell } from '../components/checkout-shell'

/** One Stripe.js per publishable key for the app's life (loadStripe adds its script once). */
const stripes = new Map<string, Promise<Stripe | null>>()
function stripeFor(publishableKey: string) {
  let stripe = stripes.get(publishableKey)
  if (!stripe) {
    stripe = loadStripe(publishableKey)
    stripes.set(publishableKey, stripe)
  }
  return stripe
}

function OrderSummary({ name, description, price }: { name: string; description?: string; price: number }) {
  return (
    <Card data-testid="order-summary">
      <CardHeader>
        <CardDescription>Order summary</CardDescription>
        <CardTitle data-testid="product-name">{name}</CardTitle>
        {description && <p className="text-sm text-slate-600" data-testid="product-description">{description}</p>}
      </CardHeader>
      <CardContent className="flex items-baseline justify-between border-t border-slate-100 pt-4">
        <span className="text-sm font-medium text-slate-600">Total</span>
        <span className="text-2xl font-bold text-slate-900" data-testid="product-price">
          {formatCents(price)}
        </span>
      </CardContent>
    </Card>
  )
}

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card className="text-center">
      <CardHeader>
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      </CardHeader>
      {children && <CardContent className="grid justify-items-center gap-4">{children}</CardContent>}
    </Card>
  )
}

/** /payment?id={productId}: the checkout a payment code opens (spec 02 §2 "Payment checkout"). */
export function PaymentPage() {
  usePageTitle(siteTitle('Checkout'))
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const id = params.get('id')
  const config = useBillingConfig()
  const product = usePaymentProduct(id)
  const enabled = config.data?.enabled === true
  const intent = usePaymentIntent(product.data, enabled)
  const publishableKey = config.data?.publishableKey
  const stripe = useMemo(() => (publishableKey && ensureStripeAllowed() ? stripeFor(publishableKey) : null), [publishableKey])
  const goBack = (
    <Button variant="outline" onClick={() => void navigate(-1)}>
      Go Back
    </Button>
  )

  // A code's preview encodes its product in the query until the code is generated.
  if (!id && params.get('temp') === 'true') {
    const price = Math.round(Number(params.get('price') ?? 0) * 100)
    return (
      <CheckoutShell>
        <OrderSummary name={params.get('name') ?? ''} price={Number.isFinite(price) ? price : 0} />
        <Alert>This is a preview. The checkout opens from the generated QR code.</Alert>
      </CheckoutShell>
    )
  }
  if (!id) {
    return (
      <CheckoutShell>
        <Message title="Product ID is required">{goBack}</Message>
      </CheckoutShell>
    )
  }
  if (product.isLoading || config.isLoading) {
    return <Spinner />
  }
  if (product.error || !product.data) {
    return (
      <CheckoutShell>
        <Message title="Product Not Found">
          <p className="text-sm text-slate-600">This payment link does not lead to a product.</p>
          {goBack}
        </Message>
      </CheckoutShell>
    )
  }

  let payment
  if (!enabled) {
    payment = <Alert data-testid="payments-off">{config.data?.message ?? 'Payments are not available yet.'}</Alert>
  } else if (intent.isLoading) {
    payment = <Spinner label="Preparing the card form..." className="min-h-40" />
  } else if (intent.error || !intent.data || !stripe) {
    payment = <Alert variant="destructive">Could not process payment setup</Alert>
  } else {
    payment = (
      <Card>
        <CardContent className="pt-6">
          <Elements stripe={stripe} options={{ clientSecret: intent.data.clientSecret }}>
            <CheckoutForm amount={product.data.productPrice} />
          </Elements>
        </CardContent>
      </Card>
    )
  }

  return (
    <CheckoutShell>
      <OrderSummary name={product.data.productName} description={product.data.productDescription} price={product.data.productPrice} />
      {payment}
    </CheckoutShell>
  )
}

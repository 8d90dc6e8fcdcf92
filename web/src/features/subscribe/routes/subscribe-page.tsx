import { Check } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { useBillingConfig } from '@/lib/billing'
import { premiumPerks } from '@/lib/premium'
import { usePageTitle } from '@/lib/use-page-title'
import { useManageSubscription, usePricingTable, useSubscribeCheckout } from '../api/billing'
import { PricingTable } from '../components/pricing-table'

/** Premium's price (spec 02 §1). */
const PREMIUM_PRICE = '$9.99/month'

/** Statuses in which a subscription still holds: a second checkout would charge twice. */
const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused']

function capitalise(status: string) {
  return status.charAt(0).toUpperCase() + status.slice(1).replace('_', ' ')
}

function ManageButton() {
  const manage = useManageSubscription()
  return (
    <Button onClick={() => manage.mutate()} disabled={manage.isPending}>
      {manage.isPending ? 'Opening...' : 'Manage subscription'}
    </Button>
  )
}

/** Premium: its price and what it adds (the 3-day trial too, while it runs), whatever sells it. */
function PremiumPlan({ dynamicLimit, children }: { dynamicLimit?: number; children: ReactNode }) {
  return (
    <Card className="mx-auto mb-8 max-w-md text-left" data-testid="premium-plan">
      <CardHeader>
        <CardTitle>Premium</CardTitle>
        <p className="text-3xl font-bold tracking-tight text-slate-900" data-testid="premium-price">
          {PREMIUM_PRICE.replace('/month', '')}
          <span className="text-base font-medium text-slate-600">/month</span>
        </p>
        <CardDescription>What Premium unlocks</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid gap-2 text-sm text-slate-700">
          {[...premiumPerks(dynamicLimit), 'Everything a free account has: scan analytics, logos and styling, bulk generation', 'Cancel anytime'].map(
            (item) => (
              <li key={item} className="flex items-start gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                {item}
              </li>
            ),
          )}
        </ul>
        <p className="text-sm text-slate-600" data-testid="trial-note">
          While it runs, the 3-day trial gives all of this too, no card needed.
        </p>
        {children}
      </CardContent>
    </Card>
  )
}

/** Stripe Checkout for the Premium price: signed-in users go straight there, visitors sign in first. */
function SubscribeButton({ signedIn }: { signedIn: boolean }) {
  const checkout = useSubscribeCheckout()
  if (!signedIn) {
    return (
      <Button asChild className="w-full">
        <Link to="/auth?mode=register">Create an account to subscribe</Link>
      </Button>
    )
  }
  return (
    <Button className="w-full" onClick={() => checkout.mutate()} disabled={checkout.isPending}>
      {checkout.isPending ? 'Opening checkout...' : `Subscribe for ${PREMIUM_PRICE}`}
    </Button>
  )
}

/**
 * /subscribe: Premium's price and what it adds, always; then Stripe's pricing
 * table when one is configured, else a Subscribe button that starts Stripe
 * Checkout for the configured price, else word that subscriptions are not
 * configured. Subscribers manage theirs in Stripe's portal.
 */
export function SubscribePage() {
  usePageTitle('QR Code Pricing, Subscription Plans')
  const config = useBillingConfig()
  const { data: user, isLoading: userLoading } = useUser()
  const [searchParams] = useSearchParams()
  const enabled = config.data?.enabled === true
  const pricingTableId = enabled ? config.data?.pricingTableId : undefined
  const priceId = enabled ? config.data?.priceId : undefined
  const subscribed = !!user?.subscriptionStatus && LIVE_STATUSES.includes(user.subscriptionStatus)
  const table = usePricingTable(user?.id, !!pricingTableId && !subscribed)
  // The server refuses a second checkout (409) even when the session's copy of the user is stale.
  const refused = table.error instanceof ApiError && table.error.status === 409

  let body
  if (config.isLoading || userLoading || table.isLoading) {
    body = <Spinner label="Loading plans..." />
  } else if (!pricingTableId && !priceId) {
    body = (
      <PremiumPlan dynamicLimit={config.data?.dynamicLimit}>
        <Alert data-testid="payments-off">
          Subscriptions are not configured yet, so Premium cannot be bought here. Static codes stay free, and the 3-day trial needs no
          card.
        </Alert>
      </PremiumPlan>
    )
  } else if (subscribed || refused) {
    body = (
      <Card className="mx-auto max-w-xl text-left" data-testid="subscribed">
        <CardHeader>
          <CardTitle>You are subscribed</CardTitle>
          <CardDescription>
            {refused
              ? serverMessage(table.error)
              : `Subscription status: ${capitalise(user?.subscriptionStatus ?? '')}. Change your plan, update your card or cancel in Stripe's customer portal.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ManageButton />
        </CardContent>
      </Card>
    )
  } else if (table.error) {
    body = <Alert variant="destructive">{serverMessage(table.error) ?? 'Could not load the plans. Please try again.'}</Alert>
  } else if (!pricingTableId) {
    body = (
      <PremiumPlan dynamicLimit={config.data?.dynamicLimit}>
        {searchParams.get('checkout') === 'success' && (
          <Alert data-testid="checkout-done">Thank you! Stripe is confirming your subscription; this page shows it once it is active.</Alert>
        )}
        <SubscribeButton signedIn={!!user} />
      </PremiumPlan>
    )
  } else {
    body = (
      <>
        {!user && (
          <p className="mb-6 text-sm text-slate-600">
            Have an account? <Link to="/auth" className="font-semibold text-primary hover:underline">Log in</Link> first, so the
            plan is added to it.
          </p>
        )}
        {table.data?.customerSessionClientSecret && (
          <div className="mb-6">
            <ManageButton />
          </div>
        )}
        <PremiumPlan dynamicLimit={config.data?.dynamicLimit}>
          <p className="text-sm text-slate-600">Choose it in the table below; Stripe runs the checkout.</p>
        </PremiumPlan>
        <PricingTable
          pricingTableId={pricingTableId}
          publishableKey={config.data?.publishableKey ?? ''}
          clientReferenceId={table.data?.clientReferenceId}
          customerEmail={table.data?.customerEmail}
          customerSessionClientSecret={table.data?.customerSessionClientSecret}
        />
      </>
    )
  }

  return (
    <section className="mx-auto max-w-5xl px-4 py-16 text-center sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Choose Your Plan</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
        Premium is <strong className="font-semibold text-slate-900">{PREMIUM_PRICE}</strong>: dynamic codes without a limit. Or
        start with a 3-day free trial of it, no credit card needed.
      </p>
      <div className="mt-10">{body}</div>
    </section>
  )
}

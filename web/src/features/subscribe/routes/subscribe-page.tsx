import { Check } from 'lucide-react'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { useBillingConfig } from '@/lib/billing'
import { usePageTitle } from '@/lib/use-page-title'
import { useManageSubscription, usePricingTable } from '../api/billing'
import { PricingTable } from '../components/pricing-table'

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

/** /subscribe: plans through Stripe's pricing table; subscribers manage theirs in Stripe's portal. */
export function SubscribePage() {
  usePageTitle('QR Code Pricing, Subscription Plans')
  const config = useBillingConfig()
  const { data: user, isLoading: userLoading } = useUser()
  const enabled = config.data?.enabled === true
  const subscribed = !!user?.subscriptionStatus && LIVE_STATUSES.includes(user.subscriptionStatus)
  const table = usePricingTable(user?.id, enabled && !subscribed)
  // The server refuses a second checkout (409) even when the session's copy of the user is stale.
  const refused = table.error instanceof ApiError && table.error.status === 409

  let body
  if (config.isLoading || userLoading || table.isLoading) {
    body = <Spinner label="Loading plans..." />
  } else if (!enabled) {
    body = (
      <Alert className="mx-auto max-w-xl" data-testid="payments-off">
        {config.data?.message ?? 'Payments are not available yet.'} Static codes stay free, and the 3-day trial needs no card.
      </Alert>
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
        <PricingTable
          pricingTableId={config.data?.pricingTableId ?? ''}
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
        Start with a 3-day free trial of premium: 12 dynamic codes, analytics and logos, no credit card needed. Subscribe
        for dynamic codes without a limit.
      </p>
      <ul className="mx-auto mt-6 flex max-w-2xl flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-700">
        {['Unlimited dynamic codes', 'Scan analytics', 'Logos and advanced styling', 'Cancel anytime'].map((item) => (
          <li key={item} className="inline-flex items-center gap-1.5">
            <Check className="size-4 text-primary" aria-hidden="true" />
            {item}
          </li>
        ))}
      </ul>
      <div className="mt-10">{body}</div>
    </section>
  )
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api-client'

/** GET /api/billing/config: whether payments are on, and what Stripe.js needs. */
export interface BillingConfig {
  enabled: boolean
  publishableKey?: string
  pricingTableId?: string
  /** The Premium price /subscribe sells through Stripe Checkout when there is no pricing table. */
  priceId?: string
  /** Dynamic codes an account may have without a subscription. */
  dynamicLimit?: number
  message?: string
}

export const billingConfigQueryOptions = () =>
  queryOptions<BillingConfig>({ queryKey: ['/api/billing/config'], queryFn: getQueryFn<BillingConfig>({ on401: 'throw' }) })

export function useBillingConfig() {
  return useQuery(billingConfigQueryOptions())
}

/** The pages whose HTML the server sends with a policy that allows Stripe.js. */
const stripePages = ['/subscribe', '/payment']

/**
 * Makes sure the page may load Stripe.js. The server allows Stripe's origins
 * only in the policy of /subscribe and /payment, and a policy belongs to the
 * document: a page reached by in-app navigation still runs under the policy
 * of the page the app was first loaded on. Such a page is loaded afresh (once:
 * afterwards the document is its own). Returns false while that reload runs.
 */
export function ensureStripeAllowed(): boolean {
  const path = window.location.pathname
  const [loaded] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
  if (!loaded || !stripePages.includes(path) || new URL(loaded.name).pathname === path) return true
  window.location.reload()
  return false
}

/** Formats a price in cents as dollars with 2 decimals (spec 02 §9). */
export function formatCents(cents: number) {
  return `$${(cents / 100).toFixed(2)}`
}

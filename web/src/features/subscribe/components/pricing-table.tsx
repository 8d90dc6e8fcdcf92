import { createElement, useEffect } from 'react'
import { ensureStripeAllowed } from '@/lib/billing'

const PRICING_TABLE_SCRIPT = 'https://js.stripe.com/v3/pricing-table.js'

/** Adds Stripe's pricing-table script to the page once. */
function loadPricingTableScript() {
  if (document.querySelector(`script[src="${PRICING_TABLE_SCRIPT}"]`)) return
  const script = document.createElement('script')
  script.src = PRICING_TABLE_SCRIPT
  script.async = true
  document.head.append(script)
}

export interface PricingTableProps {
  pricingTableId: string
  publishableKey: string
  clientReferenceId?: string
  customerEmail?: string
  customerSessionClientSecret?: string
}

/** Stripe's embedded <stripe-pricing-table>: plans and their checkout, run by Stripe. */
export function PricingTable({ pricingTableId, publishableKey, clientReferenceId, customerEmail, customerSessionClientSecret }: PricingTableProps) {
  useEffect(() => {
    if (ensureStripeAllowed()) loadPricingTableScript()
  }, [])
  // Only the attributes that are set: Stripe refuses customer-email beside a customer session.
  const attributes: Record<string, string> = { 'pricing-table-id': pricingTableId, 'publishable-key': publishableKey }
  if (clientReferenceId) attributes['client-reference-id'] = clientReferenceId
  if (customerSessionClientSecret) attributes['customer-session-client-secret'] = customerSessionClientSecret
  else if (customerEmail) attributes['customer-email'] = customerEmail
  return createElement('stripe-pricing-table', attributes)
}

import { useMutation, useQuery } from '@tanstack/react-query'
import { apiJson, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

/** POST /api/billing/pricing-table: the attributes of the user's pricing table. */
export interface PricingTableAttributes {
  clientReferenceId: string
  customerEmail?: string
  customerSessionClientSecret?: string
}

export function usePricingTable(userId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/billing/pricing-table', userId],
    queryFn: () => apiJson<PricingTableAttributes>('POST', '/api/billing/pricing-table'),
    enabled: enabled && userId !== undefined,
  })
}

/** POST /api/billing/checkout-session, then off to Stripe Checkout for the Premium price. */
export function useSubscribeCheckout() {
  return useMutation({
    mutationFn: () => apiJson<{ url: string }>('POST', '/api/billing/checkout-session'),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Could not start the checkout. Please try again.',
        variant: 'destructive',
      }),
  })
}

/** POST /api/billing-portal, then off to Stripe's customer portal. */
export function useManageSubscription() {
  return useMutation({
    mutationFn: () => apiJson<{ url: string }>('POST', '/api/billing-portal'),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Could not open the subscription portal. Please try again.',
        variant: 'destructive',
      }),
  })
}

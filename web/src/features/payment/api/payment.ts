import { useQuery } from '@tanstack/react-query'
import { apiJson, getQueryFn } from '@/lib/api-client'

/** GET /api/payment-product/{id} (spec 02 §3 "Payment product"); the price is in cents. */
export interface PaymentProduct {
  id: number
  productName: string
  productDescription: string
  productPrice: number
}

export function usePaymentProduct(id: string | null) {
  return useQuery({
    queryKey: ['/api/payment-product', id ?? ''],
    queryFn: getQueryFn<PaymentProduct>({ on401: 'throw' }),
    enabled: !!id,
  })
}

/** POST /api/create-payment-intent: the charge is always the product's stored price. */
export function usePaymentIntent(product: PaymentProduct | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/create-payment-intent', product?.id],
    queryFn: () =>
      apiJson<{ clientSecret: string }>('POST', '/api/create-payment-intent', {
        amount: product?.productPrice,
        productId: product?.id,
        productName: product?.productName,
      }),
    enabled: enabled && !!product,
  })
}

/** GET /api/payment-intent/{id}: the status Stripe gives the payment, not what a URL claims. */
export interface PaymentIntentStatus {
  id: string
  status: string
  amount: number
  currency: string
}

export function usePaymentIntentStatus(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/payment-intent', id ?? ''],
    queryFn: getQueryFn<PaymentIntentStatus>({ on401: 'throw' }),
    enabled: enabled && !!id,
  })
}

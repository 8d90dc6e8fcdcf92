import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** The event types an endpoint may subscribe to, with what each tells (docs/API.md "Webhooks"). */
export const eventTypes = [
  { type: 'code.created', label: 'A code is created' },
  { type: 'code.updated', label: "A code's name, destination, style, password, routing, tags or folder changes" },
  { type: 'code.deleted', label: 'A code is deleted' },
  { type: 'code.paused', label: 'A code is paused' },
  { type: 'code.resumed', label: 'A code is resumed' },
  { type: 'code.moved', label: 'A code is moved to or from this workspace' },
  { type: 'scan.created', label: 'Scans, in batches of up to 100, at most one a second' },
  { type: 'bulk.completed', label: 'A bulk generation job finishes' },
  { type: 'payment.succeeded', label: 'A payment code is paid' },
  { type: 'alert.destination_down', label: "A code's destination stops answering" },
  { type: 'alert.destination_recovered', label: "A code's destination answers again" },
  { type: 'alert.scans_dropped', label: "A code's scans drop sharply" },
  { type: 'webhook.test', label: 'Tests sent from this page' },
] as const

/** An endpoint as GET /api/webhooks lists it; secret only in the answers of create and rotate-secret. */
export interface Webhook {
  id: number
  url: string
  events: string[]
  description: string
  enabled: boolean
  disabledReason: string
  consecutiveFailures: number
  failingSince: string | null
  secret?: string
  createdAt: string
  updatedAt: string
}

/** One event sent, or to send, to an endpoint. */
export interface Delivery {
  id: number
  eventId: string
  type: string
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  lastStatusCode: number | null
  lastError: string
  nextAttemptAt: string
  createdAt: string
}

/** GET /api/webhooks/{id}/deliveries/{deliveryId}: the event's JSON as sent and the start of the last answer's body (2 KB). */
export interface DeliveryDetail extends Delivery {
  payload: string
  lastResponse: string
}

export interface WebhookInput {
  url?: string
  events?: string[]
  description?: string
  enabled?: boolean
}

export const webhooksQueryKey = ['/api/webhooks']

export function useWebhooks() {
  return useQuery<Webhook[]>({ queryKey: webhooksQueryKey })
}

function useWebhookMutation<A, R>(run: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }) })
}

export function useCreateWebhook() {
  return useWebhookMutation((input: WebhookInput) => apiJson<Webhook>('POST', '/api/webhooks', input))
}

export function useUpdateWebhook() {
  return useWebhookMutation(({ id, ...input }: WebhookInput & { id: number }) => apiJson<Webhook>('PATCH', `/api/webhooks/${id}`, input))
}

export function useDeleteWebhook() {
  return useWebhookMutation((id: number) => apiRequest('DELETE', `/api/webhooks/${id}`))
}

export function useRotateSecret() {
  return useWebhookMutation((id: number) => apiJson<Webhook>('POST', `/api/webhooks/${id}/rotate-secret`))
}

export const deliveriesPageSize = 20

function deliveriesKey(id: number) {
  return ['/api/webhooks', String(id), 'deliveries']
}

/** An endpoint's deliveries, newest first, a page at a time; polled while any is pending. */
export function useDeliveries(id: number) {
  return useInfiniteQuery({
    queryKey: deliveriesKey(id),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(deliveriesPageSize) })
      if (pageParam) params.set('cursor', pageParam)
      return apiJson<{ items: Delivery[]; nextCursor: string | null }>('GET', `/api/webhooks/${id}/deliveries?${params}`)
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2000 : false),
  })
}

/** One delivery with its payload and last answer, read when it is opened. */
export function useDelivery(id: number, deliveryId: number) {
  return useQuery({
    queryKey: [...deliveriesKey(id), String(deliveryId)],
    queryFn: () => apiJson<DeliveryDetail>('GET', `/api/webhooks/${id}/deliveries/${deliveryId}`),
  })
}

/** Sends a test event, or a delivery again; the deliveries list is refreshed. */
export function useSendAgain(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (deliveryId?: number) =>
      apiRequest('POST', deliveryId === undefined ? `/api/webhooks/${id}/test` : `/api/webhooks/${id}/deliveries/${deliveryId}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  })
}

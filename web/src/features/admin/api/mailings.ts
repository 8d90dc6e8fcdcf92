import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'

/** GET /api/newsletter/stats (spec 02 §3): new counts are over the last 30 days. */
export interface NewsletterStats {
  totalUsers: number
  newUsers: number
  totalQRCodes: number
  newQRCodes: number
  /** False when the server has no SMTP settings: it then refuses every mailing. */
  mailEnabled: boolean
}

export type MailingKind = 'newsletter' | 'welcome' | 'scans' | 'paused'

/** A mailing and its progress; successCount and totalUsers are the spec's names for sent and recipients. */
export interface Mailing {
  id: number
  kind: MailingKind
  subject: string
  status: 'queued' | 'sending' | 'done'
  totalUsers: number
  successCount: number
  pending: number
  failed: number
  skipped: number
  interrupted: number
  createdAt: string
  finishedAt: string | null
}

export const statsKey = ['/api/newsletter/stats']
export const mailingsKey = ['/api/mailings']

/** While a mailing is being sent its progress is polled this often (ms). */
export const PROGRESS_INTERVAL = 1_000

export function useNewsletterStats() {
  return useQuery(queryOptions<NewsletterStats>({ queryKey: statsKey }))
}

/** The latest mailings, polled while any is unfinished. */
export function useMailings(enabled: boolean) {
  return useQuery(
    queryOptions<{ mailings: Mailing[] }>({
      queryKey: mailingsKey,
      enabled,
      refetchInterval: (query) => (query.state.data?.mailings.some((m) => m.status !== 'done') ? PROGRESS_INTERVAL : false),
    }),
  )
}

export interface NewsletterInput {
  subject: string
  content: string
  includeStats: boolean
}

const kindPaths: Record<Exclude<MailingKind, 'newsletter'>, string> = {
  welcome: '/api/send-welcome-to-all',
  scans: '/api/send-scan-notifications',
  paused: '/api/send-pause-notifications',
}

/** Queues a mailing; the answer is the new mailing, whose progress the list then shows. */
export function useQueueMailing() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { kind: 'newsletter'; newsletter: NewsletterInput } | { kind: Exclude<MailingKind, 'newsletter'> }) =>
      input.kind === 'newsletter'
        ? apiJson<Mailing>('POST', '/api/send-newsletter', input.newsletter)
        : apiJson<Mailing>('POST', kindPaths[input.kind]),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailingsKey }),
  })
}

/** POST /api/send-test-email: mails the signed-in admin at once. */
export function useSendTestEmail() {
  return useMutation({ mutationFn: () => apiJson<{ message: string }>('POST', '/api/send-test-email') })
}

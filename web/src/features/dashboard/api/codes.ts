import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest, serverFieldErrors } from '@/lib/api-client'
import { toast, toastFailure } from '@/lib/use-toast'
import { codeListParams, dashboardView, emptyQuery, type CodeQuery, type CodeStatus } from '../lib/code-query'
import { trialStatusQueryOptions } from './trial-status'
import { codePath, type DynamicCode, type Routing, type SavedCode } from './types'
import { countOf } from '@/lib/count'

/** The server-side list of both kinds (issue 22); every page of it shares this key's prefix. */
export const codesKey = ['/api/codes']

interface CodePage {
  items: (SavedCode & { kind?: 'static' | 'dynamic' })[]
  nextCursor: string | null
  /** On the first page: how many codes the query matches in all. */
  total?: number
}

/** How many codes a list's query matches, from its first page; undefined while it loads. */
export function listTotal(list: { data?: { pages: CodePage[] } }): number | undefined {
  return list.data?.pages[0]?.total
}

/** The list of a query's codes of a status, a page at a time by the server's cursor (stable while codes are added). */
export function codeListOptions(query: CodeQuery, status: CodeStatus) {
  return infiniteQueryOptions({
    queryKey: [...codesKey, codeListParams(query, status).toString()],
    queryFn: async ({ pageParam }) => {
      const page = await apiJson<CodePage>('GET', `/api/codes?${codeListParams(query, status, pageParam)}`)
      return { ...page, items: page.items.map(({ kind, ...code }) => ({ ...code, qrMode: kind ?? code.qrMode }) as SavedCode) }
    },
    initialPageParam: '',
    getNextPageParam: (last: CodePage) => last.nextCursor ?? undefined,
  })
}

/**
 * Asks for what the dashboard at this query string waits on before its
 * first cards (the list's first page and the trial status, FirstLoad), so
 * they come while the page's code loads rather than after it (app/start).
 */
export async function prefetchDashboard(queryClient: QueryClient, search: string) {
  const view = dashboardView(new URLSearchParams(search))
  if (view === 'create') return
  await Promise.all([queryClient.prefetchInfiniteQuery(codeListOptions(emptyQuery, view)), queryClient.prefetchQuery(trialStatusQueryOptions(true))])
}

/**
 * The codes of a status that the query keeps (codeListOptions). A record's
 * "kind" is its qrMode.
 */
export function useCodeList(query: CodeQuery, status: CodeStatus) {
  return useInfiniteQuery({
    ...codeListOptions(query, status),
    // Typing in the search keeps the cards on screen until the new answer.
    placeholderData: keepPreviousData,
  })
}

/**
 * Refetches every list a change can touch (a pause moves a code between
 * lists), the analytics' list of dynamic codes, and the trial status and
 * analytics, which count codes.
 */
export function useInvalidateCodes() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all(
      [codesKey, ['/api/dynamic-qrcodes'], ['/api/trial-status'], ['/api/user-analytics']].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    )
}

/**
 * A change to one code. A failure says so in a toast with the server's
 * words (issue 39; spec 01 §8 only logged them, and a viewer's Pause then
 * did nothing visible), except a refusal of only the fields the caller's
 * form shows at their place (fields): a rename, say, has none, so its
 * refusal is toasted. The lists are refetched either way, so the card shows
 * what the server holds: as it was, after a failure.
 */
function useCodeMutation<V>(call: (variables: V) => Promise<unknown>, what: string, done?: string, fields: readonly string[] = []) {
  const invalidate = useInvalidateCodes()
  const failed = toastFailure(`Could not ${what} the QR code`)
  return useMutation({
    mutationFn: call,
    // A short confirmation that the change took.
    onSuccess: done ? () => toast({ title: done }) : undefined,
    onError: (error) => {
      const refused = Object.keys(serverFieldErrors(error) ?? {})
      if (!refused.length || !refused.every((field) => fields.includes(field))) failed(error)
    },
    onSettled: invalidate,
  })
}

export function useRenameCode() {
  return useCodeMutation(({ code, name }: { code: SavedCode; name: string }) => apiJson('PATCH', codePath(code), { name }), 'rename')
}

export function useDeleteCode() {
  return useCodeMutation((code: SavedCode) => apiRequest('DELETE', codePath(code)), 'delete', 'QR code deleted')
}

export function usePauseCode() {
  return useCodeMutation((code: DynamicCode) => apiJson('POST', `${codePath(code)}/pause`), 'pause', 'QR code paused')
}

export function useResumeCode() {
  return useCodeMutation((code: DynamicCode) => apiJson('POST', `${codePath(code)}/resume`), 'resume', 'QR code resumed')
}

/** Mutes or unmutes a dynamic code's alerts (its health is still checked and shown). */
export function useMuteAlerts() {
  const invalidate = useInvalidateCodes()
  return useMutation({
    mutationFn: ({ code, muted }: { code: DynamicCode; muted: boolean }) => apiJson<DynamicCode>('PUT', `${codePath(code)}/alerts`, { muted }),
    onSuccess: (_, { muted }) =>
      toast({
        title: muted ? 'Alerts muted' : 'Alerts on',
        description: muted ? 'No e-mails or webhook events about this code.' : 'You hear when its destination breaks or its scans drop.',
      }),
    onError: toastFailure('Could not change alerts'),
    onSettled: invalidate,
  })
}

export function useEditDestination() {
  return useCodeMutation(
    ({ code, destination }: { code: DynamicCode; destination: string }) => apiJson('PUT', codePath(code), { destination }),
    'edit',
    'Destination updated',
    ['destination'],
  )
}

/** Moves a dynamic code to a verified domain, or to the base URL (null). */
export function useSetCodeDomain() {
  return useCodeMutation(
    ({ code, domainId }: { code: DynamicCode; domainId: number | null }) => apiJson<DynamicCode>('PATCH', codePath(code), { domainId }),
    'move',
    'Domain updated',
    ['domainId'],
  )
}

/** Gives a dynamic code that has no scans yet a chosen short code; refusals carry errors on shortCode. */
export function useSetShortCode() {
  return useCodeMutation(
    ({ code, shortCode }: { code: DynamicCode; shortCode: string }) => apiJson<DynamicCode>('PATCH', codePath(code), { shortCode }),
    'change',
    'Short code changed',
    ['shortCode'],
  )
}

/** Replaces a dynamic code's smart routing (null removes it); refusals carry errors by field path. */
export function useSetRouting() {
  const invalidate = useInvalidateCodes()
  return useMutation({
    mutationFn: ({ code, routing }: { code: DynamicCode; routing: Routing | null }) =>
      apiJson<DynamicCode>('PUT', `${codePath(code)}/routing`, routing),
    onSuccess: () => toast({ title: 'Routing saved' }),
    onSettled: invalidate,
  })
}

/** Sets a dynamic code's password, or removes it when password is empty. */
export function useSetCodePassword() {
  return useCodeMutation(
    ({ code, password }: { code: DynamicCode; password: string }) => apiJson('PUT', `${codePath(code)}/password`, { password }),
    'protect',
    undefined,
    ['password'],
  )
}

/**
 * Saves a copy of a code (a dynamic copy gets a new short link and counts
 * against the limit); a refusal, such as the limit, is shown as the server
 * words it.
 */
export function useDuplicateCode() {
  const invalidate = useInvalidateCodes()
  return useMutation({
    mutationFn: (code: SavedCode) => apiJson<SavedCode>('POST', `${codePath(code)}/duplicate`),
    onSuccess: (copy) => toast({ title: 'Code duplicated', description: `"${copy.name}" is in My QR Codes.` }),
    onError: toastFailure('Duplicate failed'),
    onSettled: invalidate,
  })
}

/**
 * Pause, resume or delete several codes: one call each (the server checks
 * every code's owner), then one toast saying how many changed.
 */
export function useBulkAction() {
  const invalidate = useInvalidateCodes()
  return useMutation({
    mutationFn: async ({ action, codes }: { action: 'pause' | 'resume' | 'delete'; codes: SavedCode[] }) => {
      const results = await Promise.allSettled(
        codes.map((code) => (action === 'delete' ? apiRequest('DELETE', codePath(code)) : apiJson('POST', `${codePath(code)}/${action}`))),
      )
      const failed = results.filter((r) => r.status === 'rejected').length
      return { action, done: codes.length - failed, failed }
    },
    onSuccess: ({ action, done, failed }) => {
      const verb = { pause: 'paused', resume: 'resumed', delete: 'deleted' }[action]
      toast({
        title: `${countOf(done, 'QR code')} ${verb}`,
        description: failed ? `${failed} could not be ${verb}.` : undefined,
        variant: failed ? 'destructive' : undefined,
      })
    },
    onSettled: invalidate,
  })
}

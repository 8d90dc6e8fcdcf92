import { useQuery } from '@tanstack/react-query'
import { useDebouncedValue } from '@/lib/use-debounced-value'

/** GET /api/short-codes/availability (docs/API.md "Chosen short codes"). */
export interface ShortCodeAvailability {
  shortCode: string
  available: boolean
  code?: 'invalid' | 'taken'
  message?: string
}

/** What a chosen short code may be: 3 to 64 of A-Z a-z 0-9 - _ (the server also refuses reserved words). */
export const shortCodePattern = /^[A-Za-z0-9_-]{3,64}$/

/** The local verdict on a typed short code: null when it passes (the server then decides). */
export function shortCodeProblem(code: string): string | null {
  if (code === '') return null
  return shortCodePattern.test(code) ? null : 'Use 3 to 64 letters, digits, - or _'
}

/** Whether a short code is free, asked as the user types (debounced), on the base URL or a domain. */
export function useShortCodeAvailability(code: string, domainId?: number | null) {
  const settled = useDebouncedValue(code.trim(), 300)
  const query = new URLSearchParams({ shortCode: settled })
  if (domainId) query.set('domainId', String(domainId))
  const result = useQuery<ShortCodeAvailability>({
    queryKey: [`/api/short-codes/availability?${query.toString()}`],
    enabled: settled !== '' && shortCodeProblem(settled) === null,
    staleTime: 5_000,
  })
  return { ...result, settled, pending: settled !== code.trim() }
}

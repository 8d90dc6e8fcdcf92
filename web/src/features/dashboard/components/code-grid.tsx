import { ShieldAlert } from 'lucide-react'
import { startTransition, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react'
import { Link } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { serverErrorCode, serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { codeKey, type SavedCode } from '../api/types'
import { CodeCard } from './code-card'

/** The cards of a list, or its loading, error or empty state. */
export function CodeGrid({
  codes,
  isLoading,
  error,
  paused = false,
  empty,
  selected,
  onSelect,
  upcoming = 0,
  firstUpcoming,
}: {
  codes: SavedCode[] | undefined
  isLoading: boolean
  error: unknown
  paused?: boolean
  empty: ReactNode
  /** Keys (codeKey) of the selected cards. */
  selected?: Set<string>
  onSelect?: (code: SavedCode, on: boolean) => void
  /** Placeholders for the next page's cards, so the page does not jump when they come; firstUpcoming marks the first. */
  upcoming?: number
  firstUpcoming?: Ref<HTMLLIElement>
}) {
  // When a delete, a pause or a move takes the list's last card away, focus
  // goes to the empty state's action (Create QR Code), or to its heading
  // when it has none.
  const emptyState = useRef<HTMLDivElement>(null)
  useFocusAfterRemoval(codes?.length ?? 0, () => {
    const place = emptyState.current
    return place?.querySelector<HTMLElement>('a[href], button') ?? place?.querySelector<HTMLElement>('h3')
  })
  if (isLoading) return <Spinner label="Loading your QR codes..." />
  // The workspace requires 2FA and the member has none yet (issue 27): say how to get in.
  if (serverErrorCode(error) === 'two_factor_required') {
    return (
      <section aria-labelledby="two-factor-required" className="grid justify-items-center gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-8 text-center">
        <ShieldAlert className="size-8 text-amber-700" aria-hidden="true" />
        <h2 id="two-factor-required" className="text-lg font-semibold text-slate-900">
          Two-factor authentication required
        </h2>
        <p className="max-w-prose text-sm text-slate-700">{serverMessage(error)}</p>
        <Link to="/account-settings" className="font-medium text-primary underline underline-offset-4">
          Set up two-factor authentication
        </Link>
      </section>
    )
  }
  if (error || !codes) {
    return (
      <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-center text-sm text-red-800">
        We couldn&apos;t load your QR codes. Please reload the page.
      </p>
    )
  }
  if (codes.length === 0) return <div ref={emptyState}>{empty}</div>
  return <CardList codes={codes} paused={paused} selected={selected} onSelect={onSelect} upcoming={upcoming} firstUpcoming={firstUpcoming} />
}

/** The cards a screen shows at first: two rows of the grid's columns at this width (sm:grid-cols-2 xl:grid-cols-3). */
function screenful() {
  const columns = innerWidth >= 1280 ? 3 : innerWidth >= 640 ? 2 : 1
  return 2 * columns
}

/**
 * The cards of a non-empty list. The first screenful is drawn at once and
 * the rest of the page right after, in a transition, each in its place
 * meanwhile: on a slow phone a page of cards takes longer to draw than the
 * first card takes to arrive, and nothing below the screen is seen yet.
 */
function CardList({
  codes,
  paused,
  selected,
  onSelect,
  upcoming,
  firstUpcoming,
}: {
  codes: SavedCode[]
  paused: boolean
  selected?: Set<string>
  onSelect?: (code: SavedCode, on: boolean) => void
  upcoming: number
  firstUpcoming?: Ref<HTMLLIElement>
}) {
  const [whole, setWhole] = useState(false)
  const [first] = useState(screenful)
  useEffect(() => startTransition(() => setWhole(true)), [])
  const drawn = whole ? codes : codes.slice(0, first)
  const list = useRef<HTMLUListElement>(null)
  // The card that last had focus (its dialogs' focus too: React's events
  // bubble out of portals) and its place: when a pause or a delete takes it
  // out of the list, focus would fall to the page; it goes to the card now
  // in its place instead.
  const focused = useRef<{ key: string; index: number } | null>(null)
  useLayoutEffect(() => {
    const last = focused.current
    if (!last || codes.some((c) => codeKey(c) === last.key) || (document.activeElement && document.activeElement !== document.body)) return
    focused.current = null
    list.current?.children[Math.min(last.index, drawn.length - 1)]?.querySelector('button')?.focus()
  }, [codes, drawn.length])
  return (
    <ul ref={list} className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3" aria-label={paused ? 'Paused QR codes' : 'QR codes'}>
      {drawn.map((code, index) => (
        <li key={codeKey(code)} className="grid" onFocus={() => (focused.current = { key: codeKey(code), index })}>
          <CodeCard code={code} paused={paused} selected={selected?.has(codeKey(code))} onSelect={onSelect && ((on) => onSelect(code, on))} />
        </li>
      ))}
      {codes.slice(drawn.length).map((code) => (
        <li key={codeKey(code)} aria-hidden="true" className="grid">
          <CardPlaceholder />
        </li>
      ))}
      {Array.from({ length: upcoming }, (_, i) => (
        <li key={`upcoming-${i}`} ref={i === 0 ? firstUpcoming : undefined} aria-hidden="true" className="grid">
          <CardPlaceholder />
        </li>
      ))}
    </ul>
  )
}

/** A card's place before its data: about a card's height on a phone. */
export function CardPlaceholder() {
  return <div className="h-[27rem] animate-pulse rounded-xl border border-slate-200 bg-white" />
}

/** An empty list: an icon, what is missing, and what to do. */
export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-16 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-white text-primary shadow-sm [&_svg]:size-7">{icon}</span>
      <h3 tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
        {title}
      </h3>
      {children}
    </div>
  )
}

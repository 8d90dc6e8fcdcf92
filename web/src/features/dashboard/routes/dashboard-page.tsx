import { ArrowLeft, ArrowRightLeft, CirclePause, ListChecks, Plus, QrCode, Search } from 'lucide-react'
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useDebouncedValue } from '@/lib/use-debounced-value'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { DialogSpinner } from '@/components/ui/spinner'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { hasPendingDesign } from '@/lib/pending-design'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { listTotal, useCodeList } from '../api/codes'
import { useFolders, useTags } from '../api/organise'
import { codeKey, type SavedCode } from '../api/types'
import { BulkBar } from '../components/bulk-bar'
import { v1ID, type MoveSelection } from '../api/move'
import { CardPlaceholder, CodeGrid, EmptyState } from '../components/code-grid'
import { CodeToolbar } from '../components/code-toolbar'
import { codeListParams, dashboardView, emptyQuery, isFiltered, pageSize, type CodeQuery, type CodeStatus } from '../lib/code-query'
import { can, useActiveWorkspace, useCan } from '@/lib/workspace'
import { Alert } from '@/components/ui/alert'
import { RestyleSlot, type RestyleProps } from '../components/restyle-slot'
import { SideMenu } from '../components/side-menu'
import { BulkEditSlot, useBulkEditSlot, type BulkEditProps, type BulkEditSelection } from '../components/bulk-edit-slot'
import { DynamicLimitAlert, TrialBanners } from '../trial-banners'
import { useTrialStatus } from '../api/trial-status'
import { Badge } from '@/components/ui/badge'
import { countOf } from '@/lib/count'

// The page's own dialogs load and mount when opened: the first cards do not wait for them.
const MoveDialog = lazy(() => import('../components/move-dialog').then((m) => ({ default: m.MoveDialog })))
const OrganiseDialog = lazy(() => import('../components/organise-dialog').then((m) => ({ default: m.OrganiseDialog })))

export interface DashboardPageProps {
  /** The create view's content: the generator, composed by the app (features do not import each other). */
  createView?: ReactNode
  /** The Analytics Dashboard dialog, rendered while open. */
  analytics?: (props: { open: boolean; onOpenChange: (open: boolean) => void }) => ReactNode
  /** The Restyle dialog of a card, rendered while open. */
  restyle?: (props: RestyleProps) => ReactNode
  /** The workspace switcher at the top of the side menu. */
  workspaceSwitcher?: ReactNode
  /** The bulk edit dialog of a selection, rendered while open. */
  bulkEdit?: (props: BulkEditProps) => ReactNode
}

/** /dashboard (and / for signed-in users): the user's codes, the create view and the analytics (spec 01 §2). */
export function DashboardPage({ createView, analytics, restyle, workspaceSwitcher, bulkEdit }: DashboardPageProps) {
  const [searchParams] = useSearchParams()
  const view = dashboardView(searchParams)
  const [analyticsOpen, setAnalyticsOpen] = useState(false)
  const [comingSoonOpen, setComingSoonOpen] = useState(false)
  const mayEdit = useCan('editCodes')
  const workspace = useActiveWorkspace()
  usePageTitle(view === 'create' ? 'Create QR Code - Dashboard' : siteTitle(workspace ? `Dashboard · ${workspace.name}` : 'Dashboard'))

  // Signed up from a locked feature with a design in progress: carry on with it in the create view.
  if (view === 'active' && hasPendingDesign()) return <Navigate to={{ search: '?create=true' }} replace />

  return (
    <div className="bg-slate-50/70">
      {/* The header's width and padding, so the page's edges line up with it. */}
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-10">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <div className="min-w-0">
            {/* Whose codes these are: the active workspace, also on a phone where the header shows only its initial. */}
            {workspace && (
              <p className="truncate text-sm font-semibold text-primary" data-testid="dashboard-workspace">
                {workspace.name}
              </p>
            )}
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">My QR Codes</h1>
            <p className="mt-1 text-sm text-slate-600">Create, track and manage every code you have printed.</p>
          </div>
          {view !== 'create' && mayEdit && (
            <Button asChild>
              <Link to={{ search: '?create=true' }}>
                <Plus aria-hidden="true" />
                Create QR Code
              </Link>
            </Button>
          )}
        </div>

        <div className="grid gap-6 md:grid-cols-[14rem_1fr] lg:gap-10">
          <SideMenu view={view} workspaceSwitcher={workspaceSwitcher} onAnalytics={() => setAnalyticsOpen(true)} onPaused={view === 'create' ? () => setComingSoonOpen(true) : undefined} />
          <div className="grid min-w-0 content-start gap-6">
            {view === 'create' ? (
              <CreateView>{createView}</CreateView>
            ) : (
              <FirstLoad key={view} status={view === 'paused' ? 'paused' : 'active'}>
                <TrialBanners />
                <RestyleSlot.Provider value={restyle}>
                  <BulkEditSlot.Provider value={bulkEdit}>{view === 'paused' ? <PausedView /> : <ActiveView />}</BulkEditSlot.Provider>
                </RestyleSlot.Provider>
              </FirstLoad>
            )}
          </div>
        </div>
      </div>

      {analytics?.({ open: analyticsOpen, onOpenChange: setAnalyticsOpen })}
      <PausedComingSoonDialog open={comingSoonOpen} onOpenChange={setComingSoonOpen} />
    </div>
  )
}

/**
 * Until the trial status and the list's first page have both come, one
 * skeleton as tall as the screen stands for the banners, the heading and
 * the cards, which then appear together: nothing on screen moves when they
 * arrive, and the footer stays below the fold. Later loads (a search, the
 * next page) keep the view as it is.
 */
function FirstLoad({ status, children }: { status: CodeStatus; children: ReactNode }) {
  const trial = useTrialStatus()
  const list = useCodeList(emptyQuery, status) // the heading's request: the same, so one
  const [shown, setShown] = useState(false)
  const settled = !trial.isPending && !list.isPending
  if (settled && !shown) setShown(true)
  if (!settled && !shown) return <ListSkeleton />
  return <>{children}</>
}

/** The dashboard's list before its first data: placeholders of the heading and the first cards' size. */
function ListSkeleton() {
  return (
    <div role="status" className="grid min-h-[100dvh] content-start gap-4">
      <span className="sr-only">Loading your QR codes...</span>
      <div className="h-7 w-48 animate-pulse rounded-md bg-slate-200/70" aria-hidden="true" />
      <div className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <CardPlaceholder key={i} />
        ))}
      </div>
    </div>
  )
}

/** The list's query, its pages from the server, and the selection, which keeps only codes still shown. */
function useListControls(status: CodeStatus) {
  const [query, setQuery] = useState<CodeQuery>(emptyQuery)
  // Typing a search sends one request once the text settles, not one a key.
  const search = useDebouncedValue(query.search, 300)
  const list = useCodeList({ ...query, search }, status)
  const codes = list.data?.pages.flatMap((p) => p.items)
  const [picked, setPicked] = useState<Set<string>>(() => new Set())
  const selected = codes?.filter((c) => picked.has(codeKey(c))) ?? []
  const onSelect = (code: SavedCode, on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev)
      if (on) next.add(codeKey(code))
      else next.delete(codeKey(code))
      return next
    })
  return { query, setQuery, list, codes, selected, picked, onSelect, clear: () => setPicked(new Set()) }
}

/** The list's filters as a bulk edit takes them: GET /api/codes's, without paging. */
function listFilter(query: CodeQuery, status: CodeStatus): Record<string, string> {
  const params = codeListParams(query, status)
  for (const k of ['sort', 'order', 'limit']) params.delete(k)
  return Object.fromEntries(params)
}


/**
 * Active or paused codes, with the filters (kept on screen while filtering
 * finds nothing), the selection's actions, and more pages as the list's end
 * comes into view or on Load more.
 */
function CodeList({ status }: { status: CodeStatus }) {
  const { query, setQuery, list, codes, selected, picked, onSelect, clear } = useListControls(status)
  const mayEdit = useCan('editCodes')
  const tags = useTags().data
  const folders = useFolders().data
  const [organising, setOrganising] = useState(false)
  const bulkEdit = useBulkEditSlot()
  const [editing, setEditing] = useState<{ selection: BulkEditSelection; label: string } | null>(null)
  const mayMove = useCan('moveCodes')
  const [moving, setMoving] = useState<{ selection: MoveSelection; label: string } | null>(null)
  const paused = status === 'paused'
  const filtered = isFiltered(query)
  const matching = listTotal(list)
  const all = listTotal(useCodeList(emptyQuery, status)) // the heading's request: already cached
  const editSelected = () => setEditing({ selection: { ids: selected.map(v1ID) }, label: countOf(selected.length, 'selected code') })
  const editMatching = () => setEditing({ selection: { filter: listFilter(query, status) }, label: 'every code matching this filter' })
  const moveSelected = () => setMoving({ selection: { ids: selected.map(v1ID) }, label: countOf(selected.length, 'selected code') })
  const moveMatching = () => setMoving({ selection: { filter: listFilter(query, status) }, label: 'every code matching this filter' })
  // The next page's cards hold their places: loading them as the list's
  // end nears moves nothing on screen (the footer stays below them).
  const upcoming = list.hasNextPage ? Math.max(0, Math.min(pageSize, (matching ?? Infinity) - (codes?.length ?? 0))) : 0
  const firstUpcoming = useRef<HTMLLIElement>(null)
  return (
    <>
      {codes && (codes.length > 0 || filtered) && (
        <CodeToolbar query={query} onChange={setQuery} showKind={!paused} tags={tags} folders={folders} onOrganise={mayEdit ? () => setOrganising(true) : undefined} />
      )}
      {filtered && matching !== undefined && all !== undefined && (
        <p className="text-sm text-slate-600" role="status">
          {matching} of {all} match
        </p>
      )}
      {mayEdit && (bulkEdit || mayMove) && codes && codes.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {bulkEdit && (
            <Button size="sm" variant="outline" onClick={editMatching}>
              <ListChecks aria-hidden="true" />
              {filtered
                ? `Bulk edit all ${matching === undefined ? 'codes' : countOf(matching, 'code')} matching this filter`
                : `Bulk edit all ${paused ? 'paused' : 'active'} codes`}
            </Button>
          )}
          {mayMove && (
            <Button size="sm" variant="outline" onClick={moveMatching}>
              <ArrowRightLeft aria-hidden="true" />
              {filtered ? 'Move all matching to a workspace' : `Move all ${paused ? 'paused' : 'active'} codes to a workspace`}
            </Button>
          )}
        </div>
      )}
      {mayEdit && (
        <BulkBar selected={selected} paused={paused} onDone={clear} onBulkEdit={bulkEdit ? editSelected : undefined} onMove={mayMove ? moveSelected : undefined} />
      )}
      {mayMove && moving && (
        <Suspense fallback={<DialogSpinner label="Loading..." />}>
          <MoveDialog
            selection={moving.selection}
            label={moving.label}
            open
            onOpenChange={(open) => {
              if (!open) setMoving(null)
            }}
            onMoved={clear}
          />
        </Suspense>
      )}
      {bulkEdit?.({
        selection: editing?.selection ?? { ids: [] },
        label: editing?.label ?? '',
        open: editing !== null,
        onOpenChange: (open) => {
          if (!open) setEditing(null)
        },
        tags,
        folders,
        onMove:
          mayMove && editing
            ? () => {
                setMoving(editing)
                setEditing(null)
              }
            : undefined,
      })}
      <CodeGrid
        codes={codes}
        isLoading={list.isPending}
        error={list.error}
        paused={paused}
        selected={picked}
        onSelect={mayEdit ? onSelect : undefined}
        upcoming={upcoming}
        firstUpcoming={firstUpcoming}
        empty={
          filtered ? (
            <EmptyState icon={<Search aria-hidden="true" />} title="No codes match" />
          ) : paused ? (
            <EmptyState icon={<CirclePause aria-hidden="true" />} title="No paused dynamic QR codes" />
          ) : (
            <EmptyState icon={<QrCode aria-hidden="true" />} title="No QR codes yet">
              <p className="text-sm text-slate-600">Create your first QR code to get started</p>
              {mayEdit && (
                <Button asChild className="mt-2">
                  <Link to={{ search: '?create=true' }}>
                    <Plus aria-hidden="true" />
                    Create QR Code
                  </Link>
                </Button>
              )}
            </EmptyState>
          )
        }
      />
      {list.hasNextPage && <MorePages onMore={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} near={firstUpcoming} />}
      {mayEdit && organising && (
        <Suspense fallback={<DialogSpinner label="Loading..." />}>
          <OrganiseDialog open onOpenChange={setOrganising} />
        </Suspense>
      )}
    </>
  )
}

/**
 * Loads the next page when its placeholders (near), or else the button,
 * scroll near the screen; the button does the same for keyboards and as a
 * fallback.
 */
function MorePages({ onMore, loading, near }: { onMore: () => void; loading: boolean; near?: RefObject<HTMLElement | null> }) {
  const spot = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = near?.current ?? spot.current
    if (!el || loading || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onMore(), { rootMargin: '600px' })
    observer.observe(el)
    return () => observer.disconnect()
  }, [onMore, loading, near])
  return (
    <div ref={spot} className="flex justify-center">
      <Button variant="outline" onClick={onMore} disabled={loading}>
        {loading ? 'Loading...' : 'Load more'}
      </Button>
    </div>
  )
}

/**
 * The view's heading and how many codes it has: the unfiltered list's
 * (the same query, so the same request, as the list before any filter).
 */
function CountedHeading({ status }: { status: CodeStatus }) {
  const count = listTotal(useCodeList(emptyQuery, status))
  const paused = status === 'paused'
  return (
    <div className="flex items-center gap-2">
      <h2 id={`${status}-codes-heading`} className="text-lg font-semibold text-slate-900">
        {paused ? 'Paused Codes' : 'Active Codes'}
      </h2>
      {count !== undefined &&
        (paused ? <Badge tone="amber">{count} paused</Badge> : <Badge className="bg-slate-200/70 font-medium">{countOf(count, 'code')}</Badge>)}
    </div>
  )
}

function ActiveView() {
  return (
    <section aria-labelledby="active-codes-heading" className="grid gap-4">
      <CountedHeading status="active" />
      <CodeList status="active" />
    </section>
  )
}

function PausedView() {
  const navigate = useNavigate()
  return (
    <section aria-labelledby="paused-codes-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CountedHeading status="paused" />
        <Button variant="outline" size="sm" onClick={() => navigate({ search: '' })}>
          <ArrowLeft aria-hidden="true" />
          Back to Active
        </Button>
      </div>
      <p className="text-sm text-slate-600">Paused codes show a notice instead of redirecting. Resume a code to send its scans to the destination again.</p>
      <CodeList status="paused" />
    </section>
  )
}

function CreateView({ children }: { children: ReactNode }) {
  const { data: status } = useTrialStatus()
  const workspace = useActiveWorkspace()
  if (!can(workspace?.role, 'editCodes')) {
    return (
      <section aria-labelledby="create-heading" className="grid gap-4">
        <h2 id="create-heading" className="text-lg font-semibold text-slate-900">
          Create QR Code
        </h2>
        <Alert>You are a viewer in {workspace?.name ?? 'this workspace'}: you can look at its codes, but not create or change them. Ask an owner or admin for the editor role.</Alert>
      </section>
    )
  }
  return (
    <section aria-labelledby="create-heading" className="grid gap-4">
      <h2 id="create-heading" className="text-lg font-semibold text-slate-900">
        Create QR Code
      </h2>
      {status && <DynamicLimitAlert status={status} />}
      {children ?? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center text-sm text-slate-600">The generator is on its way.</div>
      )}
    </section>
  )
}

/** Spec 01 §2 keeps this dialog on the create view's menu; the Paused Codes view itself is one click away. */
function PausedComingSoonDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Paused Codes Coming Soon</DialogTitle>
          <DialogDescription>
            Pausing codes straight from the creation view is coming soon. Your paused dynamic codes are already listed on the Paused Codes page, where you can resume them.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button
            onClick={() => {
              onOpenChange(false)
              navigate({ search: '?view=paused' })
            }}
          >
            View Paused Codes
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

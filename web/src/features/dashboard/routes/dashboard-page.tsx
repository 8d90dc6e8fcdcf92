import { ArrowLeft, CirclePause, Plus, QrCode, Search } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { hasPendingDesign } from '@/lib/pending-design'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { useActiveCodes, usePausedCodes } from '../api/codes'
import { codeKey, type SavedCode } from '../api/types'
import { BulkBar } from '../components/bulk-bar'
import { CodeGrid, EmptyState } from '../components/code-grid'
import { CodeToolbar } from '../components/code-toolbar'
import { emptyQuery, findCodes, type CodeQuery } from '../lib/find-codes'
import { RestyleSlot, type RestyleProps } from '../components/restyle-slot'
import { SideMenu, type DashboardView } from '../components/side-menu'
import { DynamicLimitAlert, TrialBanners } from '../trial-banners'
import { useTrialStatus } from '../api/trial-status'
import { Badge } from '@/components/ui/badge'

export interface DashboardPageProps {
  /** The create view's content: the generator, composed by the app (features do not import each other). */
  createView?: ReactNode
  /** The Analytics Dashboard dialog, rendered while open. */
  analytics?: (props: { open: boolean; onOpenChange: (open: boolean) => void }) => ReactNode
  /** The Restyle dialog of a card, rendered while open. */
  restyle?: (props: RestyleProps) => ReactNode
  /** The workspace switcher at the top of the side menu. */
  workspaceSwitcher?: ReactNode
}

function viewOf(params: URLSearchParams): DashboardView {
  if (params.get('create') === 'true') return 'create'
  if (params.get('view') === 'paused') return 'paused'
  return 'active'
}

/** /dashboard (and / for signed-in users): the user's codes, the create view and the analytics (spec 01 §2). */
export function DashboardPage({ createView, analytics, restyle, workspaceSwitcher }: DashboardPageProps) {
  const [searchParams] = useSearchParams()
  const view = viewOf(searchParams)
  const [analyticsOpen, setAnalyticsOpen] = useState(false)
  const [comingSoonOpen, setComingSoonOpen] = useState(false)
  usePageTitle(view === 'create' ? 'Create QR Code - Dashboard' : siteTitle('Dashboard'))

  // Signed up from a locked feature with a design in progress: carry on with it in the create view.
  if (view === 'active' && hasPendingDesign()) return <Navigate to={{ search: '?create=true' }} replace />

  return (
    <div className="bg-slate-50/70">
      {/* The header's width and padding, so the page's edges line up with it. */}
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-10">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">My QR Codes</h1>
            <p className="mt-1 text-sm text-slate-600">Create, track and manage every code you have printed.</p>
          </div>
          {view !== 'create' && (
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
              <>
                <TrialBanners />
                <RestyleSlot.Provider value={restyle}>{view === 'paused' ? <PausedView /> : <ActiveView />}</RestyleSlot.Provider>
              </>
            )}
          </div>
        </div>
      </div>

      {analytics?.({ open: analyticsOpen, onOpenChange: setAnalyticsOpen })}
      <PausedComingSoonDialog open={comingSoonOpen} onOpenChange={setComingSoonOpen} />
    </div>
  )
}

/** The list's query and selection; the selection keeps only codes still shown. */
function useListControls(codes: SavedCode[] | undefined) {
  const [query, setQuery] = useState<CodeQuery>(emptyQuery)
  const [picked, setPicked] = useState<Set<string>>(() => new Set())
  const shown = codes && findCodes(codes, query)
  const selected = shown?.filter((c) => picked.has(codeKey(c))) ?? []
  const onSelect = (code: SavedCode, on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev)
      if (on) next.add(codeKey(code))
      else next.delete(codeKey(code))
      return next
    })
  return { query, setQuery, shown, selected, picked, onSelect, clear: () => setPicked(new Set()) }
}

function ActiveView() {
  const { codes, isLoading, error } = useActiveCodes()
  const list = useListControls(codes)
  return (
    <section aria-labelledby="active-codes-heading" className="grid gap-4">
      <div className="flex items-center gap-2">
        <h2 id="active-codes-heading" className="text-lg font-semibold text-slate-900">
          Active Codes
        </h2>
        {codes && <Badge className="bg-slate-200/70 font-medium">{codes.length}</Badge>}
      </div>
      {codes && codes.length > 0 && <CodeToolbar query={list.query} onChange={list.setQuery} />}
      <BulkBar selected={list.selected} paused={false} onDone={list.clear} />
      <CodeGrid
        codes={list.shown}
        isLoading={isLoading}
        error={error}
        selected={list.picked}
        onSelect={list.onSelect}
        empty={
          codes && codes.length > 0 ? (
            <EmptyState icon={<Search aria-hidden="true" />} title="No codes match" />
          ) : (
          <EmptyState icon={<QrCode aria-hidden="true" />} title="No QR codes yet">
            <p className="text-sm text-slate-600">Create your first QR code to get started</p>
            <Button asChild className="mt-2">
              <Link to={{ search: '?create=true' }}>
                <Plus aria-hidden="true" />
                Create QR Code
              </Link>
            </Button>
          </EmptyState>
          )
        }
      />
    </section>
  )
}

function PausedView() {
  const { data: codes, isLoading, error } = usePausedCodes()
  const navigate = useNavigate()
  const list = useListControls(codes)
  return (
    <section aria-labelledby="paused-codes-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <h2 id="paused-codes-heading" className="text-lg font-semibold text-slate-900">
            Paused Codes
          </h2>
          {codes && <Badge tone="amber">{codes.length} paused</Badge>}
        </div>
        <Button variant="outline" size="sm" onClick={() => navigate({ search: '' })}>
          <ArrowLeft aria-hidden="true" />
          Back to Active
        </Button>
      </div>
      <p className="text-sm text-slate-600">Paused codes show a notice instead of redirecting. Resume a code to send its scans to the destination again.</p>
      {codes && codes.length > 0 && <CodeToolbar query={list.query} onChange={list.setQuery} showKind={false} />}
      <BulkBar selected={list.selected} paused onDone={list.clear} />
      <CodeGrid
        codes={list.shown}
        isLoading={isLoading}
        error={error}
        paused
        selected={list.picked}
        onSelect={list.onSelect}
        empty={
          codes && codes.length > 0 ? (
            <EmptyState icon={<Search aria-hidden="true" />} title="No codes match" />
          ) : (
            <EmptyState icon={<CirclePause aria-hidden="true" />} title="No paused dynamic QR codes" />
          )
        }
      />
    </section>
  )
}

function CreateView({ children }: { children: ReactNode }) {
  const { data: status } = useTrialStatus()
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

import { lazy, Suspense } from 'react'
import { DialogSpinner } from '@/components/ui/spinner'
import { DashboardPage } from '@/features/dashboard/routes/dashboard-page'
import { WorkspaceFromLink } from '@/features/workspaces/components/workspace-from-link'

// The generator (the create view and the cards' restyle dialog) loads when
// first shown, so the code list's first cards do not wait for it.
const Generator = lazy(() => import('@/features/generator').then((m) => ({ default: m.Generator })))
const RestyleDialog = lazy(() => import('@/features/generator').then((m) => ({ default: m.RestyleDialog })))
// The side menu's workspace switcher (Radix's menu, its layers and positioning) loads after
// the first cards, in a box of its size; on a phone the side menu is folded away anyway.
const WorkspaceSwitcher = lazy(() => import('@/features/workspaces/components/workspace-switcher').then((m) => ({ default: m.WorkspaceSwitcher })))
// The bulk edit dialog loads when it first opens.
const BulkEditDialog = lazy(() => import('@/features/bulk-edit').then((m) => ({ default: m.BulkEditDialog })))
// The analytics (and their charts) load only when the dialog first opens.
const AnalyticsDialog = lazy(() => import('@/features/analytics/components/analytics-dialog').then((m) => ({ default: m.AnalyticsDialog })))

/** The generator's shape while its code loads: the form beside the preview, so nothing moves when it arrives. */
function GeneratorSkeleton() {
  return (
    <div role="status" aria-label="Loading the generator..." className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="h-[36rem] animate-pulse rounded-2xl border border-slate-200 bg-slate-100" />
      <div className="h-[26rem] animate-pulse rounded-2xl border border-slate-200 bg-slate-100" />
    </div>
  )
}

/**
 * The dashboard composed with the features it hosts: the analytics dialog,
 * the generator's restyle dialog on the cards and, in the create view, the
 * generator, the bulk edit dialog, and the workspace switcher in the side menu; a link with
 * ?workspace=ID (the alert mails') opens that workspace. Features do not
 * import each other; the app wires them together here.
 */
export function DashboardRoute() {
  return (
    <>
      <WorkspaceFromLink />
      <DashboardPage
        createView={
          <Suspense fallback={<GeneratorSkeleton />}>
            <Generator variant="dashboard" />
          </Suspense>
        }
        restyle={(props) =>
          props.open && (
            <Suspense fallback={<DialogSpinner label="Loading restyle..." />}>
              <RestyleDialog {...props} />
            </Suspense>
          )
        }
        workspaceSwitcher={
          <Suspense fallback={<div className="h-11 rounded-lg border border-slate-200 bg-white shadow-sm" aria-hidden="true" />}>
            <WorkspaceSwitcher wide />
          </Suspense>
        }
        bulkEdit={(props) =>
          props.open && (
            <Suspense fallback={<DialogSpinner label="Loading bulk edit..." />}>
              <BulkEditDialog {...props} />
            </Suspense>
          )
        }
        analytics={({ open, onOpenChange }) =>
          open && (
            <Suspense fallback={<DialogSpinner label="Loading analytics..." />}>
              <AnalyticsDialog open={open} onOpenChange={onOpenChange} />
            </Suspense>
          )
        }
      />
    </>
  )
}

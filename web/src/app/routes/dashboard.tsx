import { lazy, Suspense } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { DashboardPage } from '@/features/dashboard/routes/dashboard-page'
import { Generator, RestyleDialog } from '@/features/generator'
import { WorkspaceFromLink } from '@/features/workspaces/components/workspace-from-link'
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher'

// The bulk edit dialog loads when it first opens.
const BulkEditDialog = lazy(() => import('@/features/bulk-edit').then((m) => ({ default: m.BulkEditDialog })))
// The analytics (and their charts) load only when the dialog first opens.
const AnalyticsDialog = lazy(() => import('@/features/analytics/components/analytics-dialog').then((m) => ({ default: m.AnalyticsDialog })))

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
        createView={<Generator variant="dashboard" />}
        restyle={(props) => <RestyleDialog {...props} />}
        workspaceSwitcher={<WorkspaceSwitcher wide />}
        bulkEdit={(props) =>
          props.open && (
            <Suspense fallback={<Spinner className="fixed inset-0 z-50 min-h-0 bg-slate-900/30" label="Loading bulk edit..." />}>
              <BulkEditDialog {...props} />
            </Suspense>
          )
        }
        analytics={({ open, onOpenChange }) =>
          open && (
            <Suspense fallback={<Spinner className="fixed inset-0 z-50 min-h-0 bg-slate-900/30" label="Loading analytics..." />}>
              <AnalyticsDialog open={open} onOpenChange={onOpenChange} />
            </Suspense>
          )
        }
      />
    </>
  )
}

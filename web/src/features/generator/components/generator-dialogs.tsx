import { lazy, Suspense } from 'react'
import { qrTypeLabel, type QrType } from '@/lib/qr-types'

// The dialogs' code loads when the first one opens (BENCHMARKS.md, page weight).
const dialogs = () => import('./dialogs')
const PremiumFeatureDialog = lazy(() => dialogs().then((m) => ({ default: m.PremiumFeatureDialog })))
const FutureFeatureDialog = lazy(() => dialogs().then((m) => ({ default: m.FutureFeatureDialog })))
const AnalyticsUpsellDialog = lazy(() => dialogs().then((m) => ({ default: m.AnalyticsUpsellDialog })))
const AccountPromptDialog = lazy(() => dialogs().then((m) => ({ default: m.AccountPromptDialog })))

export type DialogName = 'premium' | 'future' | 'analytics' | 'account'

/** The generator's dialogs: a premium or future type refused, scan tracking for visitors, the account prompt. */
export function GeneratorDialogs({
  dialog,
  onDialogChange,
  refusedType,
  onTypeDialogClosed,
}: {
  dialog: DialogName | null
  onDialogChange: (dialog: DialogName | null) => void
  refusedType?: QrType
  /** Closing a type's dialog hands focus back to where the type was chosen. */
  onTypeDialogClosed: (event: Event) => void
}) {
  return (
    <Suspense fallback={null}>
      <PremiumFeatureDialog open={dialog === 'premium'} onOpenChange={(open) => onDialogChange(open ? 'premium' : null)} onCloseAutoFocus={onTypeDialogClosed} />
      <FutureFeatureDialog
        open={dialog === 'future'}
        onOpenChange={(open) => onDialogChange(open ? 'future' : null)}
        onCloseAutoFocus={onTypeDialogClosed}
        typeLabel={refusedType ? qrTypeLabel(refusedType) : undefined}
      />
      <AnalyticsUpsellDialog open={dialog === 'analytics'} onOpenChange={(open) => onDialogChange(open ? 'analytics' : null)} />
      <AccountPromptDialog open={dialog === 'account'} onOpenChange={(open) => onDialogChange(open ? 'account' : null)} />
    </Suspense>
  )
}

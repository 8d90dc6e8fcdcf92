import type { QrType } from '@/lib/qr-types'
import type { Preselection } from '../hooks/use-preselection'
import type { Design } from './pending-design'
import { isBlockedType, needsAccount } from './qr-types'
import { withSampleData } from './schemas'

// Where the generator starts: a design kept over signing in, a preselected template or type, or a website.

/** Where a preselection lands: a blocked or premium type is refused with its dialog, as if chosen by hand. */
export function startingPoint(pre: Preselection | null, signedIn: boolean, kept: Design | null) {
  if (kept && (signedIn || !needsAccount(kept.qrType))) return { type: kept.qrType, dialog: null, values: kept.values }
  if (!pre) return { type: 'url' as QrType, dialog: null }
  if (isBlockedType(pre.type)) return { type: 'url' as QrType, dialog: 'future' as const, refused: pre.type }
  if (needsAccount(pre.type) && !signedIn) return { type: 'url' as QrType, dialog: 'premium' as const }
  return { type: pre.type, dialog: null, values: pre.data === undefined ? undefined : withSampleData(pre.type, pre.data) }
}

import { isQrType, type QrType } from '@/lib/qr-types'
import { stashPendingDesign, takePendingDesign } from '@/lib/pending-design'
import { isBlockedType } from './qr-types'
import { typeDefaults, type TypeValues } from './schemas'
import { defaultStyle, type StyleState } from './style'

/** What of a visitor's design survives a trip to /auth: the type, its fields and the style. */
export interface Design {
  qrType: QrType
  values: TypeValues
  style: StyleState
}

export function keepDesign(design: Design) {
  stashPendingDesign(design)
}

/**
 * The design kept before signing up, checked field by field: only the
 * type's own fields (as text or numbers) and known style keys come back.
 */
export function restoreDesign(): Design | null {
  const raw = takePendingDesign()
  if (typeof raw !== 'object' || raw === null) return null
  const { qrType, values, style } = raw as Record<string, unknown>
  if (!isQrType(qrType) || isBlockedType(qrType)) return null
  const restored = typeDefaults(qrType)
  if (typeof values === 'object' && values !== null) {
    for (const key of Object.keys(restored)) {
      const v = (values as Record<string, unknown>)[key]
      if (typeof v === 'string' || typeof v === 'number') restored[key] = v
    }
  }
  const nextStyle: StyleState = { ...defaultStyle }
  if (typeof style === 'object' && style !== null) {
    for (const key of Object.keys(defaultStyle) as (keyof StyleState)[]) {
      const v = (style as Record<string, unknown>)[key]
      if (typeof v === typeof defaultStyle[key]) (nextStyle as unknown as Record<string, unknown>)[key] = v
    }
  }
  return { qrType, values: restored, style: nextStyle }
}

import type { QrType } from '@/lib/qr-types'
import type { TypeValues } from './schemas'

/** The type fields as the generation endpoints take them: trimmed text, the price as dollars. */
export function typeFieldValues(values: TypeValues): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    out[key] = typeof value === 'number' ? String(value) : value.trim()
  }
  return out
}

/**
 * The type fields of a saved code's form: a location's place name and
 * description travel as locationName and locationDescription there, since
 * `name` is the code's own name (docs/API.md).
 */
export function saveFieldValues(type: QrType, values: TypeValues): Record<string, string> {
  const out = typeFieldValues(values)
  if (type === 'location') {
    out.locationName = out.name ?? ''
    out.locationDescription = out.description ?? ''
    delete out.name
    delete out.description
  }
  return out
}

/**
 * A visitor's unsaved design, kept in sessionStorage while they sign up from
 * a locked feature, so the generator can give it back afterwards. The
 * generator owns its shape; the dashboard only asks whether one is waiting.
 */
const KEY = 'squarely.pendingDesign'

export function stashPendingDesign(design: unknown) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(design))
  } catch {
    // Storage full or refused: the design is simply not kept.
  }
}

export function hasPendingDesign(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null
  } catch {
    return false
  }
}

/** The waiting design, removed as it is read; null when there is none or it does not parse. */
export function takePendingDesign(): unknown {
  try {
    const raw = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    return raw === null ? null : (JSON.parse(raw) as unknown)
  } catch {
    return null
  }
}

// Shared by the generator's live preview and bulk generation, which both
// read "example.com" as https://example.com.

function looksLikeWebAddress(s: string): boolean {
  let u: URL
  try {
    u = new URL(s)
  } catch {
    return false
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && /\.[a-z]{2,}$/i.test(u.hostname)
}

/**
 * The address to preview for what the user typed, or null for none: an http
 * or https URL whose host ends in a dot and at least two letters, as typed or
 * with https:// in front.
 */
export function acceptPreviewUrl(raw: string): string | null {
  const s = raw.trim()
  if (!s || /\s/.test(s)) return null
  if (looksLikeWebAddress(s)) return s
  if (/^https?:\/\//i.test(s)) return null
  const withScheme = `https://${s}`
  return looksLikeWebAddress(withScheme) ? withScheme : null
}

/** The UTM parameters the Destination tab's builder appends, in this order. */
export const utmKeys = ['source', 'medium', 'campaign', 'term', 'content'] as const

export type UtmValues = Partial<Record<(typeof utmKeys)[number], string>>

/**
 * Adds the non-empty UTM values to url as utm_* query parameters, replacing
 * any it already has; a URL that does not parse is returned unchanged.
 */
export function withUtm(url: string, values: UtmValues): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  for (const key of utmKeys) {
    const value = values[key]?.trim()
    if (value) parsed.searchParams.set(`utm_${key}`, value)
  }
  return parsed.toString()
}

/** The noun for a count: the singular for exactly 1 ("1 scan"), else the plural ("0 scans", "2 scans"). */
export function nounFor(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural
}

/** A count and its noun, e.g. "1 generation", "3 QR codes". */
export function countOf(count: number, singular: string, plural?: string): string {
  return `${count} ${nounFor(count, singular, plural)}`
}

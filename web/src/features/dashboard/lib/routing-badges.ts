import type { DynamicCode } from '../api/types'

/**
 * The card badges of a code's smart routing (issue 23): Rules, Split,
 * Scheduled (a start or end still ahead), Ends in N scans, and Ended once
 * its end time or scan limit has passed.
 */
export function routingBadges(code: Pick<DynamicCode, 'routing' | 'limitScans'>, now = Date.now()): string[] {
  const r = code.routing
  if (!r) return []
  const badges: string[] = []
  if (r.rules.length) badges.push('Rules')
  if (r.split.length) badges.push('Split')
  const ended = (r.expiresAt != null && Date.parse(r.expiresAt) <= now) || (r.scanLimit != null && code.limitScans >= r.scanLimit)
  if (ended) return [...badges, 'Ended']
  if ((r.startsAt && Date.parse(r.startsAt) > now) || r.expiresAt) badges.push('Scheduled')
  if (r.scanLimit != null) {
    const left = r.scanLimit - code.limitScans
    badges.push(`Ends in ${left} ${left === 1 ? 'scan' : 'scans'}`)
  }
  return badges
}

// Where each of the routing's refusals (errors by field path, docs/API.md
// "Smart routing") shows in the Edit dialog: beside its field, in its tab.

export type RoutingTab = 'rules' | 'split' | 'schedule'

const scheduleFields: Record<string, string> = {
  startsAt: 'routing-starts',
  expiresAt: 'routing-expires',
  scanLimit: 'routing-limit',
  afterEnd: 'routing-after-end',
}

/**
 * The id of the control a refusal at path belongs to, or undefined when it
 * is about no one field (a rule as a whole, an unknown key): those show in
 * the footer.
 */
export function routingFieldId(path: string): string | undefined {
  if (path in scheduleFields) return scheduleFields[path]
  if (path === 'split') return 'split-total'
  let m = /^rules\.(\d+)\.(destination|pageId|when\.(os|country|language|region|city|days|from|to|timeZone))$/.exec(path)
  if (m) return `rule-${m[1]}-${m[3] === 'timeZone' ? 'tz' : m[2] === 'pageId' ? 'page' : (m[3] ?? 'destination')}`
  m = /^split\.(\d+)\.(destination|pageId|weight)$/.exec(path)
  if (m) return `split-${m[1]}-${m[2] === 'pageId' ? 'page' : m[2]}`
  return undefined
}

/** The tab a refusal at path shows in. */
export function routingTabOf(path: string): RoutingTab {
  if (path.startsWith('rules')) return 'rules'
  if (path.startsWith('split')) return 'split'
  return 'schedule'
}

/** The tabs with a refusal, in the dialog's order. */
export function tabsWithErrors(errors: Record<string, string>): RoutingTab[] {
  const tabs = new Set(Object.keys(errors).map(routingTabOf))
  return (['rules', 'split', 'schedule'] as const).filter((t) => tabs.has(t))
}

/** The refusals no field shows. */
export function unplacedErrors(errors: Record<string, string>): string[] {
  return Object.entries(errors)
    .filter(([path]) => !routingFieldId(path))
    .map(([, message]) => message)
}

/**
 * The props that tie a control to its refusal: marked invalid and
 * described by the message (whose id is `${id}-error`).
 */
export function invalidProps(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {}
}

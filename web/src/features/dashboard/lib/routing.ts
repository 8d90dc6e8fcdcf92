import type { RouteTarget, Routing, RoutingRule } from '../api/types'

// The routing object of the Edit dialog's Rules, Split and Schedule & limit tabs, as edited and as sent.

export const emptyRouting: Routing = { rules: [], split: [], startsAt: null, expiresAt: null, scanLimit: null, afterEnd: null }

/** A split's variant as people see it, lettered in order: "Variant A" (as the server's refusals and the analytics name it). */
export function variantName(i: number) {
  return `Variant ${String.fromCharCode(65 + i)}`
}

/** Whether a rule names any condition: one without takes every scan. */
export function hasConditions(rule: RoutingRule) {
  return (
    (['os', 'country', 'language', 'days'] as const).some((key) => rule.when[key]?.length) ||
    (['region', 'city'] as const).some((key) => names(rule.when[key]).length) ||
    Boolean(rule.when.from || rule.when.to)
  )
}

/** A region or city list as typed (comma-separated, spaces kept): its names. */
export function names(list: string[] | undefined) {
  return (list ?? []).map((s) => s.trim()).filter(Boolean)
}

/** The routing as sent: empty conditions dropped; null when nothing is set. */
export function cleaned(r: Routing): Routing | null {
  const rules = r.rules.map((rule) => {
    const when: RoutingRule['when'] = {}
    for (const key of ['os', 'country', 'language', 'days'] as const) {
      if (rule.when[key]?.length) when[key] = rule.when[key]
    }
    for (const key of ['region', 'city'] as const) {
      if (names(rule.when[key]).length) when[key] = names(rule.when[key])
    }
    for (const key of ['from', 'to', 'timeZone'] as const) {
      if (rule.when[key]) when[key] = rule.when[key]
    }
    return { when, ...target(rule) }
  })
  const split = r.split.map((v) => ({ ...target(v), weight: v.weight }))
  const out = { ...r, rules, split, afterEnd: r.afterEnd || null }
  const unset = !rules.length && !r.split.length && !r.startsAt && !r.expiresAt && r.scanLimit == null && !out.afterEnd
  return unset ? null : out
}

/** A rule's or variant's target as sent: its page, or else its URL. */
function target(t: RouteTarget): RouteTarget {
  return t.pageId ? { pageId: t.pageId } : { destination: t.destination ?? '' }
}

/** An RFC 3339 instant as a datetime-local value, in the browser's zone. */
export function toLocalInput(iso: string | null) {
  if (!iso) return ''
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

export function fromLocalInput(value: string) {
  return value ? new Date(value).toISOString() : null
}

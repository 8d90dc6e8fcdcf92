import { AppWindow, CalendarDays, Contact, Images, Link2, Store, Ticket, UtensilsCrossed, type LucideIcon } from 'lucide-react'

/** The hosted page types (issue 35), as the generator lists them. */
export const pageTypes = [
  { value: 'vcard', label: 'vCard Plus', icon: Contact },
  { value: 'links', label: 'Link list', icon: Link2 },
  { value: 'menu', label: 'Menu', icon: UtensilsCrossed },
  { value: 'gallery', label: 'Gallery', icon: Images },
  { value: 'coupon', label: 'Coupon', icon: Ticket },
  { value: 'event', label: 'Event', icon: CalendarDays },
  { value: 'app', label: 'App download', icon: AppWindow },
  { value: 'business', label: 'Business page', icon: Store },
] as const satisfies readonly { value: string; label: string; icon: LucideIcon }[]

export type PageType = (typeof pageTypes)[number]['value']

export function isPageType(v: string | undefined): v is PageType {
  return pageTypes.some((t) => t.value === v)
}

export function pageTypeLabel(t: PageType): string {
  return pageTypes.find((p) => p.value === t)?.label ?? t
}

export const weekdays = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const

/** A new page's content: what the editor starts from. */
export function emptyContent(t: PageType): Record<string, unknown> {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  switch (t) {
    case 'vcard':
      return {
        firstName: '',
        lastName: '',
        jobTitle: '',
        company: '',
        phones: [{ type: 'cell', number: '' }],
        emails: [{ type: 'work', address: '' }],
        website: '',
        address: { street: '', city: '', region: '', postalCode: '', country: '' },
        socials: [],
        note: '',
      }
    case 'links':
      return { title: '', bio: '', links: [{ label: '', url: '' }], socials: [] }
    case 'menu':
      return { title: '', description: '', items: [{ section: '', name: '', description: '', price: '', currency: 'EUR', dietary: [] }], files: [] }
    case 'gallery':
      return { title: '', description: '', images: [] }
    case 'coupon':
      return { headline: '', description: '', code: '', terms: '', validUntil: '', timeZone: zone }
    case 'event':
      return { title: '', start: '', end: '', timeZone: zone, venue: '', address: '', description: '' }
    case 'app':
      return { name: '', description: '', appStoreUrl: '', googlePlayUrl: '' }
    case 'business':
      return {
        name: '',
        about: '',
        timeZone: zone,
        hours: {},
        address: { street: '', city: '', region: '', postalCode: '', country: '' },
        phone: '',
        email: '',
        website: '',
        links: [],
      }
  }
}

/** Drops empty list rows the editor starts with, so an untouched row is not an error. */
export function cleanContent(t: PageType, c: Record<string, unknown>): Record<string, unknown> {
  const out = { ...c }
  const keep = (key: string, filled: (row: Record<string, unknown>) => boolean) => {
    if (Array.isArray(out[key])) out[key] = (out[key] as Record<string, unknown>[]).filter(filled)
  }
  if (t === 'vcard') {
    keep('phones', (r) => Boolean(r.number))
    keep('emails', (r) => Boolean(r.address))
  }
  keep('socials', (r) => Boolean(r.url))
  return out
}

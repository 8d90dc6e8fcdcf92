import { AppWindow, CalendarDays, IdCard, Images, Link2, Store, Ticket, UtensilsCrossed, type LucideIcon } from 'lucide-react'
import type { PageType } from '@/lib/page-types'

export { isPageType, pageTypeLabel, pageTypes, type PageType } from '@/lib/page-types'

/** Each page type's icon in the pages list. */
export const pageTypeIcons: Record<PageType, LucideIcon> = {
  vcard: IdCard,
  links: Link2,
  menu: UtensilsCrossed,
  gallery: Images,
  coupon: Ticket,
  event: CalendarDays,
  app: AppWindow,
  business: Store,
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

/** The dietary tags a menu item may carry (docs/API.md "Hosted pages"). */
export const dietaryTags = ['vegetarian', 'vegan', 'gluten-free', 'dairy-free', 'nut-free', 'halal', 'kosher', 'spicy'] as const

/** A business page's opening intervals per day, at most. */
export const maxDaySpans = 4

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
  if (t === 'menu') keep('files', (r) => Boolean(r.url))
  return out
}

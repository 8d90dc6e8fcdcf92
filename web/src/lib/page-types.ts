// The hosted page types (issue 35): shared by the generator's type list
// and the pages feature. Names only: the generator's list carries no
// icons for them, which keeps the landing page's JavaScript in budget.
export const pageTypes = [
  { value: 'vcard', label: 'vCard Plus' },
  { value: 'links', label: 'Link list' },
  { value: 'menu', label: 'Menu' },
  { value: 'gallery', label: 'Gallery' },
  { value: 'coupon', label: 'Coupon' },
  { value: 'event', label: 'Event' },
  { value: 'app', label: 'App download' },
  { value: 'business', label: 'Business page' },
] as const

export type PageType = (typeof pageTypes)[number]['value']

export function isPageType(v: string | undefined): v is PageType {
  return pageTypes.some((t) => t.value === v)
}

export function pageTypeLabel(t: PageType): string {
  return pageTypes.find((p) => p.value === t)?.label ?? t
}

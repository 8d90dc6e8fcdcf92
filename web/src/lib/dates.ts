/**
 * The app's one way of writing dates: the reader's locale, medium style
 * ("Nov 20, 2026"; with a time "Nov 20, 2026, 8:00 AM"). Charts and
 * exports that need a time zone or a fixed form format their own.
 */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function valid(value: string | number | Date) {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A day, e.g. "Nov 20, 2026"; '' for a value that is no date. */
export function formatDate(value: string | number | Date) {
  const date = valid(value)
  return date ? dateFormat.format(date) : ''
}

/** A moment, e.g. "Nov 20, 2026, 8:00 AM"; '' for a value that is no date. */
export function formatDateTime(value: string | number | Date) {
  const date = valid(value)
  return date ? dateTimeFormat.format(date) : ''
}

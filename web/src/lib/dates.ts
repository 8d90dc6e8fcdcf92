/**
 * The app's one way of writing dates: in English like the rest of its
 * text, medium style ("Nov 20, 2026"; with a time "Nov 20, 2026, 8:00 AM"),
 * in the reader's time zone. Written from the date's own fields rather
 * than with Intl: the first Intl date or number format a page makes loads
 * ICU's locale data, about 120 ms of a slow phone's CPU that the
 * dashboard's first cards waited for (BENCHMARKS.md, the dashboard's first
 * card). Charts and exports that need a time zone or a fixed form format
 * their own.
 */

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

function valid(value: string | number | Date) {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

function day(date: Date) {
  return `${months[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`
}

/** A day, e.g. "Nov 20, 2026"; '' for a value that is no date. */
export function formatDate(value: string | number | Date) {
  const date = valid(value)
  return date ? day(date) : ''
}

/** A moment, e.g. "Nov 20, 2026, 8:00 AM"; '' for a value that is no date. */
export function formatDateTime(value: string | number | Date) {
  const date = valid(value)
  if (!date) return ''
  const hours = date.getHours()
  const minutes = String(date.getMinutes()).padStart(2, '0')
  return `${day(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`
}

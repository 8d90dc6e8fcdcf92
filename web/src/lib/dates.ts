/**
 * The app's one way of writing dates: the reader's locale, medium style
 * ("Nov 20, 2026"; with a time "Nov 20, 2026, 8:00 AM"). Charts and
 * exports that need a time zone or a fixed form format their own.
 */

/** A format made on first use: making one costs a phone tens of milliseconds, and most pages need only one of them. */
function lazyFormat(options: Intl.DateTimeFormatOptions) {
  let format: Intl.DateTimeFormat | undefined
  return () => (format ??= new Intl.DateTimeFormat(undefined, options))
}

const dateFormat = lazyFormat({ dateStyle: 'medium' })
const dateTimeFormat = lazyFormat({ dateStyle: 'medium', timeStyle: 'short' })

function valid(value: string | number | Date) {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A day, e.g. "Nov 20, 2026"; '' for a value that is no date. */
export function formatDate(value: string | number | Date) {
  const date = valid(value)
  return date ? dateFormat().format(date) : ''
}

/** A moment, e.g. "Nov 20, 2026, 8:00 AM"; '' for a value that is no date. */
export function formatDateTime(value: string | number | Date) {
  const date = valid(value)
  return date ? dateTimeFormat().format(date) : ''
}

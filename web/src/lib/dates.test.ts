import { formatDate, formatDateTime } from './dates'

// ICU's own en-US medium formats, which these functions write without
// loading ICU; newer ICU puts a narrow no-break space before AM/PM.
const icuDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })
const icuDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const icu = (format: Intl.DateTimeFormat, date: Date) => format.format(date).replace(/\u202f/g, ' ')

describe('dates', () => {
  it('writes a day and a moment in the reader’s time zone', () => {
    const at = new Date(2026, 10, 20, 8, 5)
    expect(formatDate(at)).toBe('Nov 20, 2026')
    expect(formatDateTime(at)).toBe('Nov 20, 2026, 8:05 AM')
    expect(formatDate(at.toISOString())).toBe('Nov 20, 2026')
    expect(formatDate(at.getTime())).toBe('Nov 20, 2026')
  })

  it('writes midnight and noon as 12', () => {
    expect(formatDateTime(new Date(2027, 0, 1, 0, 0))).toBe('Jan 1, 2027, 12:00 AM')
    expect(formatDateTime(new Date(2027, 0, 1, 12, 30))).toBe('Jan 1, 2027, 12:30 PM')
    expect(formatDateTime(new Date(2027, 0, 1, 23, 59))).toBe('Jan 1, 2027, 11:59 PM')
  })

  it('matches ICU’s en-US medium format on every month and hour', () => {
    for (let month = 0; month < 12; month++) {
      for (let hour = 0; hour < 24; hour++) {
        const at = new Date(2026, month, 1 + ((month * 7 + hour) % 28), hour, (hour * 13) % 60)
        expect(formatDate(at)).toBe(icu(icuDate, at))
        expect(formatDateTime(at)).toBe(icu(icuDateTime, at))
      }
    }
  })

  it('writes nothing for a value that is no date', () => {
    expect(formatDate('not a date')).toBe('')
    expect(formatDateTime('')).toBe('')
    expect(formatDateTime(Number.NaN)).toBe('')
  })
})

import { describe, expect, it } from 'vitest'
import { countOf, nounFor } from './count'

describe('counts', () => {
  it('use the singular for exactly one and the plural otherwise', () => {
    expect(countOf(1, 'generation')).toBe('1 generation')
    expect(countOf(0, 'download')).toBe('0 downloads')
    expect(countOf(2, 'scan')).toBe('2 scans')
    expect(countOf(1, 'QR code')).toBe('1 QR code')
    expect(countOf(3, 'QR code')).toBe('3 QR codes')
  })

  it('take an irregular plural', () => {
    expect(nounFor(1, 'entry', 'entries')).toBe('entry')
    expect(countOf(5, 'entry', 'entries')).toBe('5 entries')
  })
})

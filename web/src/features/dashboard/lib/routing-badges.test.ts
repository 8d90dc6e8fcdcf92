import { describe, expect, it } from 'vitest'
import type { Routing } from '../api/types'
import { routingBadges } from './routing-badges'

const none: Routing = { rules: [], split: [], startsAt: null, expiresAt: null, scanLimit: null, afterEnd: null }
const now = Date.parse('2026-06-01T12:00:00Z')

describe('routingBadges', () => {
  it('shows nothing for a plain code', () => {
    expect(routingBadges({ routing: null, limitScans: 0 }, now)).toEqual([])
  })
  it('names rules, split, a schedule and the scans left', () => {
    const routing: Routing = {
      ...none,
      rules: [{ when: { os: ['ios'] }, destination: 'https://example.com/ios' }],
      split: [
        { destination: 'https://example.com/a', weight: 50 },
        { destination: 'https://example.com/b', weight: 50 },
      ],
      expiresAt: '2026-07-01T00:00:00Z',
      scanLimit: 100,
    }
    expect(routingBadges({ routing, limitScans: 99 }, now)).toEqual(['Rules', 'Split', 'Scheduled', 'Ends in 1 scan'])
  })
  it('says Ended once the limit or the end time has passed', () => {
    expect(routingBadges({ routing: { ...none, scanLimit: 5 }, limitScans: 5 }, now)).toEqual(['Ended'])
    expect(routingBadges({ routing: { ...none, expiresAt: '2026-05-31T00:00:00Z' }, limitScans: 0 }, now)).toEqual(['Ended'])
  })
})

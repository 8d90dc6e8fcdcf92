import { describe, expect, it } from 'vitest'
import type { DynamicCode, SavedCode, StaticCode } from '../api/types'
import { emptyQuery, findCodes } from './find-codes'

const base = { data: '', scanCount: 0, isPaused: false }
const menu: StaticCode = { ...base, id: 1, name: 'Lunch menu', qrType: 'url', qrMode: 'static', data: 'https://cafe.example/menu', createdAt: '2026-11-01T10:00:00Z' }
const card: StaticCode = { ...base, id: 2, name: 'business card', qrType: 'contact', qrMode: 'static', data: 'BEGIN:VCARD', createdAt: '2026-11-03T10:00:00Z' }
const poster: DynamicCode = {
  ...base,
  id: 1,
  name: 'Poster',
  qrType: 'url',
  qrMode: 'dynamic',
  data: 'http://x/d/AbCd1234',
  destination: 'https://shop.example/spring',
  shortCode: 'AbCd1234',
  shortUrl: 'http://x/d/AbCd1234',
  scanCount: 7,
  lastScannedAt: null,
  pausedAt: null,
  updatedAt: '2026-11-02T10:00:00Z',
  createdAt: '2026-11-02T10:00:00Z',
  isProtected: false,
  routing: null,
  limitScans: 0,
}
const codes: SavedCode[] = [menu, card, poster]
const names = (list: SavedCode[]) => list.map((c) => c.name)

describe('findCodes', () => {
  it('searches names, destinations and short codes, ignoring case', () => {
    expect(names(findCodes(codes, { ...emptyQuery, search: 'LUNCH' }))).toEqual(['Lunch menu'])
    expect(names(findCodes(codes, { ...emptyQuery, search: 'shop.example' }))).toEqual(['Poster'])
    expect(names(findCodes(codes, { ...emptyQuery, search: 'abcd12' }))).toEqual(['Poster'])
    expect(findCodes(codes, { ...emptyQuery, search: 'nothing like it' })).toEqual([])
  })

  it('filters by type and kind', () => {
    expect(names(findCodes(codes, { ...emptyQuery, type: 'url' }))).toEqual(['Poster', 'Lunch menu'])
    expect(names(findCodes(codes, { ...emptyQuery, kind: 'dynamic' }))).toEqual(['Poster'])
    expect(names(findCodes(codes, { ...emptyQuery, type: 'contact', kind: 'dynamic' }))).toEqual([])
  })

  it('sorts by date either way, by name and by scans', () => {
    expect(names(findCodes(codes, emptyQuery))).toEqual(['business card', 'Poster', 'Lunch menu'])
    expect(names(findCodes(codes, { ...emptyQuery, sort: 'oldest' }))).toEqual(['Lunch menu', 'Poster', 'business card'])
    expect(names(findCodes(codes, { ...emptyQuery, sort: 'name' }))).toEqual(['business card', 'Lunch menu', 'Poster'])
    expect(names(findCodes(codes, { ...emptyQuery, sort: 'scans' }))[0]).toBe('Poster')
  })

  it('leaves the given list in its order', () => {
    const list = [...codes]
    findCodes(list, { ...emptyQuery, sort: 'name' })
    expect(list).toEqual(codes)
  })
})

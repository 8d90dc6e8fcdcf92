import { describe, expect, it } from 'vitest'
import { codeListParams, emptyQuery, isFiltered, pageSize } from './code-query'

describe('codeListParams', () => {
  it('sends only the status, the order and the page size for the plain list', () => {
    expect(codeListParams(emptyQuery, 'active').toString()).toBe(`status=active&sort=created&order=desc&limit=${pageSize}`)
  })

  it('sends every filter in use, the trimmed search and the cursor', () => {
    const params = codeListParams({ search: '  Café menu ', type: 'url', kind: 'dynamic', sort: 'name', tag: '4', folder: '9' }, 'paused', 'abc==')
    expect(Object.fromEntries(params)).toEqual({
      q: 'Café menu',
      kind: 'dynamic',
      type: 'url',
      status: 'paused',
      tag: '4',
      folder: '9',
      sort: 'name',
      order: 'asc',
      limit: String(pageSize),
      cursor: 'abc==',
    })
  })

  it('maps each sort to the server sort and order', () => {
    const of = (sort: typeof emptyQuery.sort) => Object.fromEntries(codeListParams({ ...emptyQuery, sort }, 'active'))
    expect(of('oldest')).toMatchObject({ sort: 'created', order: 'asc' })
    expect(of('scans')).toMatchObject({ sort: 'scans', order: 'desc' })
  })
})

describe('isFiltered', () => {
  it('is false for the empty query and a blank search, true for any filter', () => {
    expect(isFiltered(emptyQuery)).toBe(false)
    expect(isFiltered({ ...emptyQuery, search: '   ' })).toBe(false)
    expect(isFiltered({ ...emptyQuery, sort: 'name' })).toBe(false)
    expect(isFiltered({ ...emptyQuery, tag: '1' })).toBe(true)
    expect(isFiltered({ ...emptyQuery, kind: 'static' })).toBe(true)
  })
})

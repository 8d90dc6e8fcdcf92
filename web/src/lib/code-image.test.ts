import { describe, expect, it } from 'vitest'
import { imageVersion } from './code-image'

describe('imageVersion', () => {
  const code = { id: 3, name: 'Menu', data: 'https://example.com', fgColor: '#000000', dotShape: 'square', logoFilePath: '', scanCount: 1 }

  it('changes with what the picture is drawn from', () => {
    const before = imageVersion(code)
    expect(imageVersion({ ...code, fgColor: '#1A237E' })).not.toBe(before)
    expect(imageVersion({ ...code, dotShape: 'circle' })).not.toBe(before)
    expect(imageVersion({ ...code, logoFilePath: '/logo/9' })).not.toBe(before)
    expect(imageVersion({ ...code, data: 'https://example.org' })).not.toBe(before)
  })

  it('stays with what the picture does not show', () => {
    expect(imageVersion({ ...code, name: 'Renamed', scanCount: 99 })).toBe(imageVersion(code))
  })
})

import { describe, expect, it } from 'vitest'
import { acceptPreviewUrl } from './web-address'

describe('acceptPreviewUrl', () => {
  it('accepts http and https URLs whose host ends in a dot and two letters', () => {
    expect(acceptPreviewUrl('https://example.com')).toBe('https://example.com')
    expect(acceptPreviewUrl('http://shop.example.co.uk/path?q=1')).toBe('http://shop.example.co.uk/path?q=1')
    expect(acceptPreviewUrl('  https://example.io  ')).toBe('https://example.io')
  })

  it('prepends https:// when there is no scheme and checks again', () => {
    expect(acceptPreviewUrl('example.com')).toBe('https://example.com')
    expect(acceptPreviewUrl('example.com/menu')).toBe('https://example.com/menu')
    expect(acceptPreviewUrl('example.com:8080/x')).toBe('https://example.com:8080/x')
  })

  it('refuses everything else', () => {
    for (const raw of ['', '   ', 'example', 'https://example', 'https://example.c', 'http://localhost', 'ftp://example.com', 'exa mple.com', 'https://1.2.3.4']) {
      expect(acceptPreviewUrl(raw), raw).toBeNull()
    }
  })
})

import { describe, expect, it } from 'vitest'
import { withUtm } from './utm'

describe('withUtm', () => {
  it('appends the filled-in parameters and keeps the rest of the URL', () => {
    expect(withUtm('https://example.com/menu?table=4#top', { source: 'flyer', medium: 'qr', campaign: ' spring ', term: '' })).toBe(
      'https://example.com/menu?table=4&utm_source=flyer&utm_medium=qr&utm_campaign=spring#top',
    )
  })
  it('replaces a parameter the URL already has and encodes values', () => {
    expect(withUtm('https://example.com/?utm_source=old', { source: 'new & better' })).toBe('https://example.com/?utm_source=new+%26+better')
  })
  it('leaves a URL that does not parse alone', () => {
    expect(withUtm('not a url', { source: 'x' })).toBe('not a url')
  })
})

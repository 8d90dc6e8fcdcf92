import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { isQrType, QrTypeIcon, qrTypeLabel, qrTypes } from './qr-types'

describe('qr types', () => {
  it('has the 16 types, each with its own label and icon', () => {
    expect(qrTypes.map((t) => t.value)).toEqual([
      'url', 'contact', 'payment', 'pdf', 'social', 'images', 'ratings', 'email', 'location', 'events', 'apps', 'sms', 'bitcoin', 'text', 'wifi', 'gs1',
    ])
    expect(new Set(qrTypes.map((t) => t.label)).size).toBe(16)
    expect(new Set(qrTypes.map((t) => t.icon)).size).toBe(16)
  })

  it('labels and draws known types, and falls back for unknown ones', () => {
    expect(qrTypeLabel('url')).toBe('Website')
    expect(qrTypeLabel('social')).toBe('Social Media')
    expect(qrTypeLabel('wifi')).toBe('WiFi')
    expect(qrTypeLabel('text')).toBe('Plain Text')
    expect(qrTypeLabel('fax')).toBe('fax')
    const known = render(<QrTypeIcon type="url" className="size-4" />).container.querySelector('svg')
    expect(known).toHaveClass('lucide-globe', 'size-4')
    expect(known).toHaveAttribute('aria-hidden', 'true')
    expect(render(<QrTypeIcon type="wifi" />).container.querySelector('svg')).toHaveClass('lucide-wifi')
    expect(render(<QrTypeIcon type="fax" />).container.querySelector('svg')).toHaveClass('lucide-qr-code')
  })

  it('tells types from other strings', () => {
    expect(isQrType('bitcoin')).toBe(true)
    expect(isQrType('Bitcoin')).toBe(false)
    expect(isQrType('')).toBe(false)
    expect(isQrType(undefined)).toBe(false)
  })
})

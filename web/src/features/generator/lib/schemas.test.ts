import { describe, expect, it } from 'vitest'
import { qrTypes } from '@/lib/qr-types'
import { isRequiredField, parsePrice, typeDefaults, typeProblems, typeSchemas, withSampleData } from './schemas'

const check = <T extends keyof typeof typeSchemas>(type: T, values: Record<string, unknown>) =>
  typeProblems(type, { ...typeDefaults(type), ...values })

describe('type schemas: the messages of spec 01 §5, word for word', () => {
  it('url: required, then valid, then http or https', () => {
    expect(check('url', {})).toEqual({ url: 'URL is required' })
    expect(check('url', { url: '   ' })).toEqual({ url: 'URL is required' })
    expect(check('url', { url: 'example.com' })).toEqual({ url: 'Please enter a valid URL' })
    expect(check('url', { url: 'https://exa mple.com' })).toEqual({ url: 'Please enter a valid URL' })
    expect(check('url', { url: 'ftp://example.com' })).toEqual({ url: 'URL must use http or https protocol' })
    expect(check('url', { url: 'javascript:alert(1)' })).toEqual({ url: 'URL must use http or https protocol' })
    expect(check('url', { url: 'https://example.com/a?b=c' })).toEqual({})
    expect(check('url', { url: 'http://localhost:8080' })).toEqual({})
  })

  it('contact: first name and phone required; e-mail and image URL checked only when given', () => {
    expect(check('contact', {})).toEqual({ firstName: 'First name is required', phoneNumber: 'Phone number is required' })
    expect(check('contact', { firstName: 'Ada', phoneNumber: '+1 555', email: 'nope', imageUrl: 'not a url' })).toEqual({
      email: 'Please enter a valid email',
      imageUrl: 'Please enter a valid image URL',
    })
    expect(check('contact', { firstName: 'Ada', phoneNumber: '+1 555', email: 'ada@example.com', imageUrl: 'https://x.io/a.png' })).toEqual({})
  })

  it('payment: name, a price of at least 0.01 and a description', () => {
    expect(check('payment', {})).toEqual({
      productName: 'Product name is required',
      productPrice: 'Price must be greater than 0',
      productDescription: 'Product description is required',
    })
    expect(check('payment', { productName: 'Tea', productPrice: 0.001, productDescription: 'Green' })).toEqual({
      productPrice: 'Price must be greater than 0',
    })
    expect(check('payment', { productName: 'Tea', productPrice: 0.01, productDescription: 'Green' })).toEqual({})
  })

  it('payment price input: non-numeric input becomes 0', () => {
    expect(parsePrice('9.99')).toBe(9.99)
    expect(parsePrice('abc')).toBe(0)
    expect(parsePrice('')).toBe(0)
    expect(parsePrice(Number.NaN)).toBe(0)
    expect(parsePrice('Infinity')).toBe(0)
  })

  it('pdf and images: a file and a title', () => {
    expect(check('pdf', {})).toEqual({ pdfFile: 'Please select a PDF file', title: 'Title is required' })
    expect(check('pdf', { pdfFile: '4', title: 'Menu' })).toEqual({})
    expect(check('images', {})).toEqual({ imageFile: 'Please select an image file', title: 'Title is required' })
    expect(check('images', { imageFile: '5', title: 'Shop' })).toEqual({})
  })

  it('social, ratings and apps: their required fields and a web URL', () => {
    expect(check('social', {})).toEqual({ platform: 'Platform is required', url: 'URL is required' })
    expect(check('social', { platform: 'instagram', url: 'instagram.com/x' })).toEqual({ url: 'Please enter a valid URL' })
    expect(check('ratings', {})).toEqual({
      businessName: 'Business name is required',
      platform: 'Platform is required',
      url: 'URL is required',
    })
    expect(check('apps', {})).toEqual({ appName: 'App name is required', platform: 'Platform is required', url: 'URL is required' })
    expect(check('apps', { appName: 'A', platform: 'appstore', url: 'https://apps.apple.com/app/1' })).toEqual({})
  })

  it('email: required, then valid', () => {
    expect(check('email', {})).toEqual({ email: 'Email is required' })
    expect(check('email', { email: 'someone@' })).toEqual({ email: 'Please enter a valid email' })
    expect(check('email', { email: 'someone@example.com' })).toEqual({})
  })

  it('location, events, sms and bitcoin', () => {
    expect(check('location', {})).toEqual({ address: 'Address is required' })
    expect(check('events', {})).toEqual({
      title: 'Event title is required',
      startDate: 'Start date is required',
      location: 'Location is required',
    })
    expect(check('sms', {})).toEqual({ phoneNumber: 'Phone number is required' })
    expect(check('bitcoin', {})).toEqual({ address: 'Bitcoin address is required' })
  })

  it('text: anything but nothing, spaces included (as the server)', () => {
    expect(check('text', {})).toEqual({ text: 'Text is required' })
    expect(check('text', { text: ' ' })).toEqual({})
    expect(check('text', { text: 'Line 1\nLine 2 ; , : "' })).toEqual({})
  })

  it('wifi: a network name, and a password unless the network is open; every message at once', () => {
    expect(check('wifi', {})).toEqual({ ssid: 'Network name is required', password: 'Password is required' })
    expect(check('wifi', { ssid: 'Home', encryption: 'WEP' })).toEqual({ password: 'Password is required' })
    expect(check('wifi', { ssid: 'Home', encryption: 'nopass' })).toEqual({})
    expect(check('wifi', { ssid: 'Home', password: 'p;a:s,s"\\', hidden: 'true' })).toEqual({})
    expect(check('wifi', { ssid: 'Home', password: 'x', encryption: 'WPA3', hidden: 'maybe' })).toEqual({
      encryption: 'Encryption must be WPA, WEP or nopass',
      hidden: 'Hidden must be true or false',
    })
  })
})

describe('type defaults', () => {
  it('are empty for every field of the 15 types but the price (0) and a WiFi network\'s security and visibility', () => {
    expect(qrTypes).toHaveLength(15)
    const start: Record<string, string | number> = { productPrice: 0, encryption: 'WPA', hidden: 'false' }
    for (const { value } of qrTypes) {
      const defaults = typeDefaults(value)
      expect(Object.keys(defaults).sort()).toEqual(Object.keys(typeSchemas[value]).sort())
      for (const [key, v] of Object.entries(defaults)) expect(v).toBe(start[key] ?? '')
    }
    expect(typeDefaults('wifi')).toEqual({ ssid: '', encryption: 'WPA', password: '', hidden: 'false' })
  })

  it("take a template's sample data for known fields only", () => {
    expect(withSampleData('payment', { productName: 'Tea', productPrice: '4.5', bogus: 'x', productDescription: 7 })).toEqual({
      productName: 'Tea',
      productPrice: 4.5,
      productDescription: '7',
    })
    expect(withSampleData('url', null)).toEqual({ url: '' })
    expect(withSampleData('url', { url: { nested: true } })).toEqual({ url: '' })
  })

  it('mark the required fields', () => {
    expect(isRequiredField('url', 'url')).toBe(true)
    expect(isRequiredField('contact', 'firstName')).toBe(true)
    expect(isRequiredField('contact', 'email')).toBe(false)
    expect(isRequiredField('payment', 'productPrice')).toBe(true)
    expect(isRequiredField('apps', 'appCategory')).toBe(false)
    expect(isRequiredField('pdf', 'description')).toBe(false)
    expect(isRequiredField('text', 'text')).toBe(true)
    expect(isRequiredField('wifi', 'ssid')).toBe(true)
    expect(isRequiredField('wifi', 'password')).toBe(true)
    expect(isRequiredField('wifi', 'encryption')).toBe(false)
    expect(isRequiredField('wifi', 'hidden')).toBe(false)
  })

  it("fill the wifi template's sample", () => {
    expect(withSampleData('wifi', { ssid: 'Cafe-Guests', password: 'espresso2026', encryption: 'WPA', hidden: 'false' })).toEqual({
      ssid: 'Cafe-Guests',
      password: 'espresso2026',
      encryption: 'WPA',
      hidden: 'false',
    })
  })
})

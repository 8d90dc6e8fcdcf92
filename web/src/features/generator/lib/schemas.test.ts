import { describe, expect, it } from 'vitest'
import { qrTypes } from '@/lib/qr-types'
import { isRequiredField, parsePrice, typeDefaults, typeProblems, typeSchemas, withSampleData } from './schemas'
import { gtinFeedback } from '@/features/gs1'

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

describe('GS1 Digital Link', () => {
  it('checks GTIN check digits of every length and GS1 values in GS1\'s words', () => {
    for (const gtin of ['96385074', '036000291452', '4006381333931', '09506000134352']) {
      expect(check('gs1', { gtin })).toEqual({})
      const wrong = gtin.slice(0, -1) + String((Number(gtin.slice(-1)) + 1) % 10)
      expect(check('gs1', { gtin: wrong })).toEqual({ gtin: 'AI (01): The numeric check digit is incorrect.' })
    }
    expect(check('gs1', { gtin: '' })).toEqual({ gtin: 'AI (01): A GTIN is required.' })
    expect(check('gs1', { gtin: '1234567' })).toEqual({ gtin: 'AI (01): A GTIN has 8, 12, 13 or 14 digits.' })
    expect(check('gs1', { gtin: '96385074', lot: 'AB#1', serial: 'é', expiry: '271301', bestBefore: '270200' })).toEqual({
      lot: 'AI (10): A non-CSET 82 character was found where a CSET 82 character is expected.',
      serial: 'AI (21): A non-CSET 82 character was found where a CSET 82 character is expected.',
      expiry: 'AI (17): The date contains an illegal month of the year.',
    })
    expect(check('gs1', { gtin: '96385074', expiry: '270230' })).toEqual({ expiry: 'AI (17): The date contains an illegal day of the month.' })
    expect(gtinFeedback('96385074')).toEqual({ ok: true, text: 'Check digit 4 is correct (GTIN-8)' })
    expect(gtinFeedback('96385075')).toEqual({ ok: false, text: 'The check digit should be 4, not 5' })
    expect(gtinFeedback('9638507')).toBeUndefined()
  })
})

describe('type defaults', () => {
  it('are empty for every field of the 16 types but the price (0) and a WiFi network\'s security and visibility', () => {
    expect(qrTypes).toHaveLength(16)
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

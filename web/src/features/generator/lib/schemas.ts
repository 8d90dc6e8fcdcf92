import type { Resolver } from 'react-hook-form'
import type { QrType } from '@/lib/qr-types'
import { cset82Problem, dateProblem, gtinProblem } from '@/features/gs1'

/**
 * The form rules of spec 01 §5, one set per type, with its messages word
 * for word. The server applies the same rules; these are for speed. Plain
 * functions rather than a schema library: the generator loads below the
 * landing page's first screen, and zod's core alone would cost a phone
 * 24 KB of brotli JavaScript there (BENCHMARKS.md).
 */

/** Why s is not a usable web address, or undefined when it is. */
export function webUrlProblem(s: string): string | undefined {
  if (/\s/.test(s)) return 'Please enter a valid URL'
  let u: URL
  try {
    u = new URL(s)
  } catch {
    return 'Please enter a valid URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'URL must use http or https protocol'
  if (!u.hostname) return 'Please enter a valid URL'
  return undefined
}

/** A field's rule: why its value is refused, or undefined; values is the whole form, for rules across fields. */
interface Rule {
  problem: (value: unknown, values: Record<string, unknown>) => string | undefined
  /** The value the form submits is trimmed. */
  trim?: boolean
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')
// The address rule zod's email() used (its default pattern).
const emailPattern = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/
const isEmail = (s: string) => emailPattern.test(s)

/** A required web address: required, then valid, then http or https. */
const webUrl: Rule = {
  problem: (value) => {
    const s = text(value).trim()
    return s ? webUrlProblem(s) : 'URL is required'
  },
}
const required = (message: string): Rule => ({ problem: (value) => (text(value).trim() === '' ? message : undefined), trim: true })
const optional: Rule = { problem: () => undefined }
const oneOf = (choices: string[], message: string): Rule => ({ problem: (value) => (choices.includes(text(value)) ? undefined : message) })

export const typeSchemas = {
  url: { url: webUrl },
  contact: {
    firstName: required('First name is required'),
    lastName: optional,
    email: { problem: (v) => (text(v).trim() === '' || isEmail(text(v).trim()) ? undefined : 'Please enter a valid email') },
    phoneNumber: required('Phone number is required'),
    notes: optional,
    imageUrl: { problem: (v) => (text(v).trim() === '' || webUrlProblem(text(v).trim()) === undefined ? undefined : 'Please enter a valid image URL') },
  },
  payment: {
    productName: required('Product name is required'),
    productPrice: { problem: (v) => (typeof v === 'number' && v >= 0.01 ? undefined : 'Price must be greater than 0') },
    productDescription: required('Product description is required'),
  },
  pdf: { pdfFile: required('Please select a PDF file'), title: required('Title is required'), description: optional },
  social: { platform: required('Platform is required'), url: webUrl },
  images: { imageFile: required('Please select an image file'), title: required('Title is required'), description: optional },
  ratings: { businessName: required('Business name is required'), platform: required('Platform is required'), url: webUrl },
  email: {
    email: {
      problem: (v) => {
        const s = text(v).trim()
        if (s === '') return 'Email is required'
        return isEmail(s) ? undefined : 'Please enter a valid email'
      },
      trim: true,
    },
    subject: optional,
    body: optional,
  },
  location: { address: required('Address is required'), name: optional, description: optional },
  events: {
    title: required('Event title is required'),
    startDate: required('Start date is required'),
    endDate: optional,
    location: required('Location is required'),
    description: optional,
  },
  apps: {
    appName: required('App name is required'),
    platform: required('Platform is required'),
    url: webUrl,
    appDescription: optional,
    appDeveloper: optional,
    appCategory: optional,
  },
  sms: { phoneNumber: required('Phone number is required'), message: optional },
  bitcoin: { address: required('Bitcoin address is required'), amount: optional, label: optional, message: optional },
  text: { text: { problem: (v) => (text(v) === '' ? 'Text is required' : undefined) } },
  // Spaces count in a network name and a password (the server keeps them
  // too). The password's rule is checked even while other fields are
  // wrong, so every message shows at once.
  wifi: {
    ssid: { problem: (v) => (text(v) === '' ? 'Network name is required' : undefined) },
    encryption: oneOf(['WPA', 'WEP', 'nopass'], 'Encryption must be WPA, WEP or nopass'),
    password: { problem: (v, values) => (values.encryption === 'nopass' || text(v) !== '' ? undefined : 'Password is required') },
    hidden: oneOf(['true', 'false'], 'Hidden must be true or false'),
  },
  // GS1 Digital Link (issue 38): GS1's rules in GS1's words, as the server
  // gives them. Expiry and best-before are YYMMDD, day 00 the month's end.
  gs1: {
    gtin: { problem: (v) => gtinProblem(text(v).trim()), trim: true },
    lot: { problem: (v) => cset82Problem('10', text(v).trim()), trim: true },
    serial: { problem: (v) => cset82Problem('21', text(v).trim()), trim: true },
    expiry: { problem: (v) => dateProblem('17', text(v).trim(), true), trim: true },
    bestBefore: { problem: (v) => dateProblem('15', text(v).trim(), true), trim: true },
    domainId: optional,
  },
} satisfies Record<QrType, Record<string, Rule>>

/** What is wrong with a type's form: a message by field, empty when it is valid. */
export function typeProblems(type: QrType, values: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {}
  for (const [field, rule] of Object.entries<Rule>(typeSchemas[type])) {
    const message = rule.problem(values[field], values)
    if (message) problems[field] = message
  }
  return problems
}

/** The form's resolver for react-hook-form: the type's rules; it submits the type's fields, required ones trimmed. */
export function typeResolver(type: QrType): Resolver<TypeValues> {
  return (values) => {
    const problems = Object.entries(typeProblems(type, values))
    if (problems.length > 0) {
      return { values: {}, errors: Object.fromEntries(problems.map(([field, message]) => [field, { type: 'validate', message }])) }
    }
    // The type's fields only, as they are submitted.
    const out: TypeValues = {}
    for (const [field, rule] of Object.entries<Rule>(typeSchemas[type])) {
      const value = values[field]
      out[field] = rule.trim && typeof value === 'string' ? value.trim() : value
    }
    return { values: out, errors: {} }
  }
}

/** The values of one type's form: its fields by name (productPrice is a number). */
export type TypeValues = Record<string, string | number>

/** Fields that do not start blank: a payment's price, a WiFi network's security and visibility. */
const startValues: TypeValues = { productPrice: 0, encryption: 'WPA', hidden: 'false' }

/** The empty form of a type: every field blank but those of startValues. */
export function typeDefaults(type: QrType): TypeValues {
  const values: TypeValues = {}
  for (const key of Object.keys(typeSchemas[type])) {
    values[key] = startValues[key] ?? ''
  }
  return values
}

/** The price input's rule: anything that is not a finite number counts as 0. */
export function parsePrice(input: unknown): number {
  const n = typeof input === 'number' ? input : Number.parseFloat(String(input))
  return Number.isFinite(n) ? n : 0
}

/**
 * A type's defaults with the matching values of `data` laid over them (a
 * template's sample data); unknown keys and values of the wrong kind are dropped.
 */
export function withSampleData(type: QrType, data: unknown): TypeValues {
  const values = typeDefaults(type)
  if (!data || typeof data !== 'object') return values
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (!(key in values)) continue
    if (key === 'productPrice') values[key] = parsePrice(value)
    else if (typeof value === 'string' || typeof value === 'number') values[key] = String(value)
  }
  return values
}

/**
 * Whether a field is required, for the form's asterisks: the empty form is
 * refused for it (rules across fields, like a WiFi password's, included).
 */
export function isRequiredField(type: QrType, field: string): boolean {
  return field in typeProblems(type, typeDefaults(type))
}

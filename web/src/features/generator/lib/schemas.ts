// zod/mini: the generator loads below the landing page's first screen, and
// the mini build costs a phone a fraction of zod's full one (BENCHMARKS.md).
import * as z from 'zod/mini'
import type { QrType } from '@/lib/qr-types'

/**
 * The form rules of spec 01 §5, one schema per type, with its messages word
 * for word. The server applies the same rules; these are for speed.
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

/** A required web address: required, then valid, then http or https. */
const webUrl = z.string().check(
  z.superRefine((value, ctx) => {
    const s = value.trim()
    const message = s ? webUrlProblem(s) : 'URL is required'
    if (message) ctx.addIssue({ code: 'custom', message })
  }),
)

const required = (message: string) => z.string().check(z.trim(), z.minLength(1, message))
const optional = z.string()
const isEmail = (s: string) => z.email().safeParse(s).success

export const typeSchemas = {
  url: z.object({ url: webUrl }),
  contact: z.object({
    firstName: required('First name is required'),
    lastName: optional,
    email: z.string().check(z.refine((s) => s.trim() === '' || isEmail(s.trim()), 'Please enter a valid email')),
    phoneNumber: required('Phone number is required'),
    notes: optional,
    imageUrl: z.string().check(z.refine((s) => s.trim() === '' || webUrlProblem(s.trim()) === undefined, 'Please enter a valid image URL')),
  }),
  payment: z.object({
    productName: required('Product name is required'),
    productPrice: z.number().check(z.gte(0.01, 'Price must be greater than 0')),
    productDescription: required('Product description is required'),
  }),
  pdf: z.object({
    pdfFile: required('Please select a PDF file'),
    title: required('Title is required'),
    description: optional,
  }),
  social: z.object({ platform: required('Platform is required'), url: webUrl }),
  images: z.object({
    imageFile: required('Please select an image file'),
    title: required('Title is required'),
    description: optional,
  }),
  ratings: z.object({
    businessName: required('Business name is required'),
    platform: required('Platform is required'),
    url: webUrl,
  }),
  email: z.object({
    email: z.string().check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.refine((s) => s === '' || isEmail(s), 'Please enter a valid email'),
    ),
    subject: optional,
    body: optional,
  }),
  location: z.object({ address: required('Address is required'), name: optional, description: optional }),
  events: z.object({
    title: required('Event title is required'),
    startDate: required('Start date is required'),
    endDate: optional,
    location: required('Location is required'),
    description: optional,
  }),
  apps: z.object({
    appName: required('App name is required'),
    platform: required('Platform is required'),
    url: webUrl,
    appDescription: optional,
    appDeveloper: optional,
    appCategory: optional,
  }),
  sms: z.object({ phoneNumber: required('Phone number is required'), message: optional }),
  bitcoin: z.object({
    address: required('Bitcoin address is required'),
    amount: optional,
    label: optional,
    message: optional,
  }),
  text: z.object({ text: z.string().check(z.minLength(1, 'Text is required')) }),
  // Spaces count in a network name and a password (the server keeps them too).
  wifi: z
    .object({
      ssid: z.string().check(z.minLength(1, 'Network name is required')),
      encryption: z.enum(['WPA', 'WEP', 'nopass'], 'Encryption must be WPA, WEP or nopass'),
      password: optional,
      hidden: z.enum(['true', 'false'], 'Hidden must be true or false'),
    })
    // Checked even while other fields are wrong, so every message shows at once.
    .check(
      z.refine((v) => v?.encryption === 'nopass' || (v?.password ?? '') !== '', {
        path: ['password'],
        message: 'Password is required',
        when: () => true,
      }),
    ),
} satisfies Record<QrType, z.ZodMiniObject>

/** The values of one type's form: its fields by name (productPrice is a number). */
export type TypeValues = Record<string, string | number>

/** Fields that do not start blank: a payment's price, a WiFi network's security and visibility. */
const startValues: TypeValues = { productPrice: 0, encryption: 'WPA', hidden: 'false' }

/** The empty form of a type: every field blank but those of startValues. */
export function typeDefaults(type: QrType): TypeValues {
  const values: TypeValues = {}
  for (const key of Object.keys(typeSchemas[type].shape)) {
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
  const result = typeSchemas[type].safeParse(typeDefaults(type))
  return !result.success && result.error.issues.some((issue) => issue.path[0] === field)
}

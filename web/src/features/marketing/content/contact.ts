/** The Contact page's fixed content (spec 02 §2, §9). */
export const SUPPORT_EMAIL = 'support@squarely.app'
export const SUPPORT_HOURS = 'Mon-Fri 9AM-6PM EST'

export const inquiryTypes = [
  { value: 'general', label: 'General question' },
  { value: 'support', label: 'Technical support' },
  { value: 'business', label: 'Business and partnerships' },
  { value: 'feedback', label: 'Feedback' },
] as const

export type InquiryType = (typeof inquiryTypes)[number]['value']

export const helpCategories = [
  { title: 'Getting started', description: 'Making your first code, choosing a type and downloading it.' },
  { title: 'Dynamic codes', description: 'Changing a destination, pausing a code and the dynamic code limit.' },
  { title: 'Analytics', description: 'Reading scan counts, devices and referrers, and exporting CSV files.' },
  { title: 'Account and billing', description: 'Your free trial, the premium plan, your name and deleting your account.' },
]

export const quickLinks = [
  { to: '/faq', label: 'Frequently asked questions' },
  { to: '/features', label: 'Everything Squarely can do' },
  { to: '/use-cases', label: 'How others use QR codes' },
]

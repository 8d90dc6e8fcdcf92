import type { QrType } from '@/lib/qr-types'

// Choosing a blocked type opens the 'Future Feature' dialog. The list is
// shared with the Templates page, which marks those templates 'Coming Soon'.
export { isBlockedType } from '@/lib/qr-types'

/** Types that need an account: a visitor choosing one gets the 'Premium Feature' dialog. */
export function needsAccount(type: QrType): boolean {
  return type === 'pdf'
}

export interface Option {
  value: string
  label: string
}

export const socialPlatforms: Option[] = [
  { value: 'facebook', label: 'Facebook' },
  { value: 'instagram', label: 'Instagram' },
  { value: 'twitter', label: 'Twitter' },
  { value: 'linkedin', label: 'LinkedIn' },
  { value: 'youtube', label: 'YouTube' },
  { value: 'tiktok', label: 'TikTok' },
  { value: 'pinterest', label: 'Pinterest' },
  { value: 'snapchat', label: 'Snapchat' },
]

export const reviewPlatforms: Option[] = [
  { value: 'google', label: 'Google' },
  { value: 'yelp', label: 'Yelp' },
  { value: 'tripadvisor', label: 'TripAdvisor' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'trustpilot', label: 'Trustpilot' },
]

export const appPlatforms: Option[] = [
  { value: 'appstore', label: 'App Store' },
  { value: 'googleplay', label: 'Google Play' },
  { value: 'microsoft', label: 'Microsoft Store' },
  { value: 'amazon', label: 'Amazon Appstore' },
]

export const wifiSecurities: Option[] = [
  { value: 'WPA', label: 'WPA/WPA2' },
  { value: 'WEP', label: 'WEP' },
  { value: 'nopass', label: 'None (open network)' },
]

export const appCategories: Option[] = [
  'games', 'productivity', 'social', 'utilities', 'entertainment', 'lifestyle', 'education', 'business', 'health',
  'finance', 'news', 'travel', 'shopping', 'photo', 'music', 'weather', 'reference', 'sports', 'food', 'medical',
].map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }))

/**
 * The field whose web address a dynamic code redirects to, per type; types
 * without one (a vCard, a mailto link, …) cannot be dynamic. pdf and images
 * redirect to the uploaded file's page ('upload': the upload answer's address).
 */
export const dynamicDestinationField: Partial<Record<QrType, string>> = {
  url: 'url',
  social: 'url',
  ratings: 'url',
  apps: 'url',
  pdf: 'upload',
  images: 'upload',
}

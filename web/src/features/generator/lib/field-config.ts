import type { QrType } from '@/lib/qr-types'
import { appCategories, appPlatforms, reviewPlatforms, socialPlatforms, wifiSecurities, type Option } from './qr-types'
import type { TypeValues } from './schemas'

export type FieldKind =
  | 'text'
  | 'email'
  | 'url'
  | 'tel'
  | 'textarea'
  | 'select'
  | 'price'
  | 'date'
  | 'pdf'
  | 'image'
  | 'checkbox'
  | 'gtin'
  | 'domain'

export interface FieldConfig {
  name: string
  label: string
  kind: FieldKind
  placeholder?: string
  options?: Option[]
  /** Half width on wide screens, to pair short fields. */
  half?: boolean
  /** Shown only when this holds for the form's values (a WiFi password is not asked for an open network). */
  shownWhen?: (values: TypeValues) => boolean
}

/** Each type's form, in the order of spec 01 §3's table. */
export const typeFields: Record<QrType, FieldConfig[]> = {
  url: [{ name: 'url', label: 'Website URL', kind: 'url', placeholder: 'https://example.com' }],
  contact: [
    { name: 'firstName', label: 'First name', kind: 'text', placeholder: 'Jane', half: true },
    { name: 'lastName', label: 'Last name', kind: 'text', placeholder: 'Doe', half: true },
    { name: 'phoneNumber', label: 'Phone number', kind: 'tel', placeholder: '+1 555 123 4567', half: true },
    { name: 'email', label: 'Email', kind: 'email', placeholder: 'jane@example.com', half: true },
    { name: 'imageUrl', label: 'Photo URL', kind: 'url', placeholder: 'https://example.com/photo.jpg' },
    { name: 'notes', label: 'Notes', kind: 'textarea', placeholder: 'Anything else to put on the card' },
  ],
  payment: [
    { name: 'productName', label: 'Product name', kind: 'text', placeholder: 'Coffee beans, 1 kg', half: true },
    { name: 'productPrice', label: 'Price (USD)', kind: 'price', placeholder: '9.99', half: true },
    { name: 'productDescription', label: 'Product description', kind: 'textarea', placeholder: 'What the buyer gets' },
  ],
  pdf: [
    { name: 'pdfFile', label: 'PDF file', kind: 'pdf' },
    { name: 'title', label: 'Title', kind: 'text', placeholder: 'Spring menu' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  social: [
    { name: 'platform', label: 'Platform', kind: 'select', options: socialPlatforms, placeholder: 'Select a platform' },
    { name: 'url', label: 'Profile URL', kind: 'url', placeholder: 'https://instagram.com/yourname' },
  ],
  images: [
    { name: 'imageFile', label: 'Image file', kind: 'image' },
    { name: 'title', label: 'Title', kind: 'text', placeholder: 'Our new shop' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  ratings: [
    { name: 'businessName', label: 'Business name', kind: 'text', placeholder: 'Corner Café' },
    { name: 'platform', label: 'Review platform', kind: 'select', options: reviewPlatforms, placeholder: 'Select a platform' },
    { name: 'url', label: 'Review page URL', kind: 'url', placeholder: 'https://g.page/r/…' },
  ],
  email: [
    { name: 'email', label: 'Email address', kind: 'email', placeholder: 'hello@example.com' },
    { name: 'subject', label: 'Subject', kind: 'text' },
    { name: 'body', label: 'Message', kind: 'textarea' },
  ],
  location: [
    { name: 'address', label: 'Address', kind: 'text', placeholder: '1 Market Street, San Francisco' },
    { name: 'name', label: 'Place name', kind: 'text', placeholder: 'Head office' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  events: [
    { name: 'title', label: 'Event title', kind: 'text' },
    { name: 'startDate', label: 'Start date', kind: 'date', half: true },
    { name: 'endDate', label: 'End date', kind: 'date', half: true },
    { name: 'location', label: 'Location', kind: 'text' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  apps: [
    { name: 'appName', label: 'App name', kind: 'text', placeholder: 'My App', half: true },
    { name: 'platform', label: 'Platform', kind: 'select', options: appPlatforms, placeholder: 'Select a platform', half: true },
    { name: 'url', label: 'App URL', kind: 'url', placeholder: 'https://apps.apple.com/app/…' },
    { name: 'appDeveloper', label: 'Developer', kind: 'text', half: true },
    { name: 'appCategory', label: 'Category', kind: 'select', options: appCategories, placeholder: 'Select a category', half: true },
    { name: 'appDescription', label: 'Description', kind: 'textarea' },
  ],
  sms: [
    { name: 'phoneNumber', label: 'Phone number', kind: 'tel' },
    { name: 'message', label: 'Message', kind: 'textarea' },
  ],
  bitcoin: [
    { name: 'address', label: 'Bitcoin address', kind: 'text' },
    { name: 'amount', label: 'Amount (BTC)', kind: 'text', half: true },
    { name: 'label', label: 'Label', kind: 'text', half: true },
    { name: 'message', label: 'Message', kind: 'textarea' },
  ],
  text: [{ name: 'text', label: 'Text', kind: 'textarea', placeholder: 'Any text, shown as it is when scanned' }],
  wifi: [
    { name: 'ssid', label: 'Network name (SSID)', kind: 'text', placeholder: 'Cafe-Guests', half: true },
    { name: 'encryption', label: 'Security', kind: 'select', options: wifiSecurities, half: true },
    { name: 'password', label: 'Password', kind: 'text', shownWhen: (values) => values.encryption !== 'nopass' },
    { name: 'hidden', label: 'Hidden network (not broadcast)', kind: 'checkbox' },
  ],
  gs1: [
    { name: 'gtin', label: 'GTIN', kind: 'gtin', placeholder: '09506000134352' },
    { name: 'lot', label: 'Batch or lot (AI 10)', kind: 'text', placeholder: 'ABC123', half: true },
    { name: 'serial', label: 'Serial number (AI 21)', kind: 'text', half: true },
    { name: 'expiry', label: 'Expiry date (AI 17, YYMMDD)', kind: 'text', placeholder: '271231', half: true },
    { name: 'bestBefore', label: 'Best before (AI 15, YYMMDD)', kind: 'text', placeholder: '271200', half: true },
    { name: 'domainId', label: 'Domain', kind: 'domain' },
  ],
}

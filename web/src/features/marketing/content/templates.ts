/** The Templates page's categories and its 13 templates (spec 02 §2, §3). */

export const templateCategories = [
  { value: 'all', label: 'All Templates' },
  { value: 'business', label: 'Business' },
  { value: 'personal', label: 'Personal' },
  { value: 'hospitality', label: 'Hospitality' },
  { value: 'events', label: 'Events' },
] as const

export type TemplateCategory = Exclude<(typeof templateCategories)[number]['value'], 'all'>

export interface Template {
  id: string
  title: string
  description: string
  category: TemplateCategory
  popular: boolean
  /** The generator type the template fills in; it may be one the generator cannot make yet. */
  qrType: string
  /** Sample values for the type's fields, named as the generator names them. */
  previewData: Record<string, string | number>
}

export const templates: Template[] = [
  {
    id: 'website',
    title: 'Website Link',
    description: 'Send people straight to your homepage, a landing page or an online shop.',
    category: 'business',
    popular: true,
    qrType: 'url',
    previewData: { url: 'https://example.com' },
  },
  {
    id: 'business-card',
    title: 'Digital Business Card',
    description: 'Share your name, phone and e-mail as a contact card that saves to the phone in one tap.',
    category: 'business',
    popular: true,
    qrType: 'contact',
    previewData: {
      firstName: 'Jordan',
      lastName: 'Reyes',
      phoneNumber: '+1 555 0142',
      email: 'jordan@example.com',
      notes: 'Studio manager',
      imageUrl: '',
    },
  },
  {
    id: 'payment',
    title: 'Payment Link',
    description: 'Let customers pay for a product by card from a code on the counter or the invoice.',
    category: 'business',
    popular: false,
    qrType: 'payment',
    previewData: { productName: 'Gift voucher', productPrice: 25, productDescription: 'A voucher for any treatment' },
  },
  {
    id: 'menu',
    title: 'Restaurant Menu',
    description: 'Put your menu on every table; change it online without reprinting the cards.',
    category: 'hospitality',
    popular: true,
    qrType: 'url',
    previewData: { url: 'https://example.com/menu' },
  },
  {
    id: 'location',
    title: 'Location',
    description: 'Open your address in the visitor\u2019s map app, ready for directions.',
    category: 'hospitality',
    popular: false,
    qrType: 'location',
    previewData: { address: '350 Fifth Avenue, New York, NY 10118', name: 'Our shop', description: 'Entrance on 33rd Street' },
  },
  {
    id: 'wifi',
    title: 'Guest WiFi',
    description: 'Guests join your network by scanning, without spelling out the password.',
    category: 'hospitality',
    popular: true,
    qrType: 'wifi',
    previewData: { ssid: 'Cafe-Guests', password: 'espresso2026', encryption: 'WPA', hidden: 'false' },
  },
  {
    id: 'event',
    title: 'Event Page',
    description: 'Link posters and flyers to your event\u2019s programme and tickets.',
    category: 'events',
    popular: false,
    qrType: 'url',
    previewData: { url: 'https://example.com/summer-fair' },
  },
  {
    id: 'contact-phone',
    title: 'Call Me',
    description: 'A contact card with your phone number, for vans, shop windows and job-site signs.',
    category: 'personal',
    popular: false,
    qrType: 'contact',
    previewData: { firstName: 'Sam', lastName: 'Okafor', phoneNumber: '+1 555 0199', email: '', notes: '', imageUrl: '' },
  },
  {
    id: 'email',
    title: 'Email Me',
    description: 'Open a new e-mail to you with the subject already filled in.',
    category: 'personal',
    popular: false,
    qrType: 'email',
    previewData: { email: 'hello@example.com', subject: 'Question about your work', body: '' },
  },
  {
    id: 'social-media',
    title: 'Social Profile',
    description: 'Grow your followers from packaging, receipts and business cards.',
    category: 'personal',
    popular: true,
    qrType: 'social',
    previewData: { platform: 'instagram', url: 'https://instagram.com/example' },
  },
  {
    id: 'event-calendar',
    title: 'Calendar Event',
    description: 'Add the date, place and time of your event to the guest\u2019s calendar.',
    category: 'events',
    popular: false,
    qrType: 'events',
    previewData: {
      title: 'Spring Open House',
      startDate: '2026-04-18T10:00',
      endDate: '2026-04-18T16:00',
      location: '12 Harbour Road',
      description: 'Tours every hour',
    },
  },
  {
    id: 'app-download',
    title: 'App Download',
    description: 'Point people to your app on its store page.',
    category: 'business',
    popular: false,
    qrType: 'apps',
    previewData: { appName: 'Trailmate', platform: 'googleplay', url: 'https://play.google.com/store/apps/details?id=com.example.trailmate', appDescription: 'Hiking maps offline', appDeveloper: 'Example Labs', appCategory: 'travel' },
  },
  {
    id: 'bitcoin-payment',
    title: 'Bitcoin Payment',
    description: 'Ask for a payment to your Bitcoin address with the amount set.',
    category: 'business',
    popular: false,
    qrType: 'bitcoin',
    previewData: { address: 'bc1qexampleaddress0000000000000000000000', amount: '0.001', label: 'Donation', message: '' },
  },
]

/** The templates of a category ('all' for every one). */
export function templatesIn(category: string): Template[] {
  return category === 'all' ? templates : templates.filter((t) => t.category === category)
}

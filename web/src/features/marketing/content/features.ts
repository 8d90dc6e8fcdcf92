/** The Features page: 12 cards in 4 categories (spec 02 §2). Premium marks what needs the paid plan or a trial. */

export const featureCategories = [
  { value: 'generation', label: 'Generation', blurb: 'Make the code you need in seconds.' },
  { value: 'customization', label: 'Customization', blurb: 'Make it look like your brand, and still scan.' },
  { value: 'management', label: 'Management', blurb: 'Keep every code in one place and learn from its scans.' },
  { value: 'security', label: 'Security', blurb: 'Codes and accounts that stay in your hands.' },
] as const

export type FeatureCategory = (typeof featureCategories)[number]['value']

export interface Feature {
  title: string
  description: string
  category: FeatureCategory
  premium: boolean
  /** A page that tells more about the feature. */
  to?: string
}

export const features: Feature[] = [
  {
    title: 'Ten content types',
    description: 'Websites, contact cards, payments, PDFs, social profiles, images, reviews, e-mail, locations and apps.',
    category: 'generation',
    premium: false,
  },
  {
    title: 'Live preview',
    description: 'The code redraws as you type, so you see exactly what you will download.',
    category: 'generation',
    premium: false,
  },
  {
    title: 'Bulk generation',
    description: 'Paste a list or upload a CSV file and get one code per line, ready to download.',
    category: 'generation',
    premium: true,
  },
  {
    title: 'Colours and frames',
    description: 'Pick foreground and background colours and add a "SCAN ME" frame; low contrast is caught before download.',
    category: 'customization',
    premium: false,
  },
  {
    title: 'Dot and corner shapes',
    description:
      'Seven dot styles, from square to classy and extra-rounded, with eye frames and eye balls in shapes and colours of their own; every combination is tested to scan.',
    category: 'customization',
    premium: false,
  },
  {
    title: 'Logos and gradients',
    description:
      'Place your logo in the middle of the code and blend two colours in a linear gradient at any angle or a radial one; the logo size is checked against the error correction.',
    category: 'customization',
    premium: true,
  },
  {
    title: 'Dynamic codes',
    description: 'Change the destination of a printed code at any time, and pause or resume it.',
    category: 'management',
    premium: true,
  },
  {
    title: 'Scan analytics',
    description: 'Scans over time, devices, operating systems, browsers and referrers for every dynamic code.',
    category: 'management',
    premium: true,
    to: '/features/analytics',
  },
  {
    title: 'Dashboard',
    description: 'Every saved code in one place: rename, download again in PNG, SVG or PDF, or delete.',
    category: 'management',
    premium: false,
  },
  {
    title: 'Codes that always scan',
    description: 'High error correction and checks on contrast and logo size mean a styled code still reads.',
    category: 'security',
    premium: false,
  },
  {
    title: 'Secure accounts',
    description: 'Passwords stored as slow hashes, sessions in secure cookies, and sign-in with Google.',
    category: 'security',
    premium: false,
  },
  {
    title: 'Your codes stay yours',
    description: 'Only you can see, change or delete your codes and their scan data.',
    category: 'security',
    premium: false,
  },
]

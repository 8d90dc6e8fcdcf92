/**
 * Each public page's title (shown as '{title} - Squarely') and description:
 * the pages set the document title from here, and the build's prerender
 * writes both into the page's HTML head (scripts/prerender).
 */
export interface PageMeta {
  title: string
  description: string
}

export const pageMeta = {
  '/': {
    title: 'QR Code Generator',
    description:
      'Create free, styled QR codes for links, contact cards, menus and more. Dynamic codes you can edit after printing, with scan analytics.',
  },
  '/faq': {
    title: 'FAQ',
    description: 'Answers about static and dynamic QR codes, scanning, print sizes, analytics, the free trial and getting help.',
  },
  '/templates': {
    title: 'QR Code Templates',
    description: 'Ready-made QR code templates for websites, business cards, menus, WiFi, events and more. Pick one and fill it in.',
  },
  '/features': {
    title: 'Features',
    description: 'Everything Squarely does: ten content types, styling that still scans, dynamic codes, analytics, bulk generation and secure accounts.',
  },
  '/features/analytics': {
    title: 'QR Code Analytics & Tracking',
    description: 'Count every scan of your dynamic QR codes: scans over time, devices, operating systems, browsers, referrers and CSV export.',
  },
  '/use-cases': {
    title: 'Use Cases',
    description: 'How restaurants, shops, estate agents, schools, events, hotels and more use QR codes, with the benefits for each.',
  },
  '/about': {
    title: 'About Us',
    description: 'Why we built Squarely: QR codes that look like your brand and still scan, with static codes free for everyone.',
  },
  '/contact': {
    title: 'Contact Us',
    description: 'Questions, support or partnerships: write to the Squarely team. We answer Mon-Fri 9AM-6PM EST, within 24 hours.',
  },
  '/blog': {
    title: 'Blog',
    description: 'Guides on QR code error correction, print sizes, analytics, security and design, and Shark Tips for businesses.',
  },
  '/test': {
    title: 'Test',
    description: 'A small page for checking that Squarely is up and its pages load.',
  },
  '/privacy': {
    title: 'Privacy Policy',
    description: 'What Squarely stores about you and your QR codes, why, and how to delete it.',
  },
  '/terms': {
    title: 'Terms of Service',
    description: 'The rules for using Squarely: acceptable use, free and paid features, availability.',
  },
} as const satisfies Record<string, PageMeta>

export type PublicPath = keyof typeof pageMeta

/** The About page: stats, story, values and what we offer (spec 02 §2, §9). */
export const aboutStats = [
  { value: '10M+', label: 'QR codes generated' },
  { value: '50K+', label: 'Happy customers' },
  { value: '99.9%', label: 'Uptime' },
  { value: '24/7', label: 'Support' },
]

export const aboutStory = [
  'Squarely started with a menu card that did not scan. A café had printed a beautiful, brand-coloured QR code on every table, and half the phones in the room could not read it: the colours were too close and the logo covered too much of the pattern.',
  'We set out to build a generator that lets people make codes that look like their brand and still scan, every time. Our own encoder draws each code, every style is checked for contrast and error correction before download, and dynamic codes let you fix a destination after the print run instead of throwing the print run away.',
  'Today Squarely serves freelancers, restaurants, shops, schools and marketing teams. Static codes stay free, because a link on a flyer should not need a subscription.',
]

export const aboutValues = [
  { title: 'Codes that work', description: 'A code that does not scan is worse than none. We check every code before you download it.' },
  { title: 'Honest pricing', description: 'Static codes are free forever. You pay only for what needs our servers: dynamic codes and analytics.' },
  { title: 'Your data is yours', description: 'We count scans to show you your analytics, not to sell profiles. You can delete your codes and your account at any time.' },
  { title: 'Plain language', description: 'Clear messages, clear limits and a real person answering your e-mail within 24 hours.' },
]

export const aboutOffers = [
  'Static QR codes for links, contact cards, e-mail, locations, social profiles, apps and more',
  'Styling with colours, shapes, logos and frames, checked so it still scans',
  'Dynamic codes whose destination you can change after printing',
  'Scan analytics with devices, browsers, referrers and CSV export',
  'Bulk generation from a list or a CSV file',
  'Downloads as PNG, SVG and PDF',
]

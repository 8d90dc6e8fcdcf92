/** The marketing links the header shows to everyone, on desktop and in the mobile menu. */
export const navLinks = [
  { to: '/features', label: 'Features' },
  { to: '/use-cases', label: 'Use Cases' },
  { to: '/templates', label: 'Templates' },
  { to: '/blog', label: 'Blog' },
  { to: '/faq', label: 'FAQ' },
  { to: '/subscribe', label: 'Pricing' },
]

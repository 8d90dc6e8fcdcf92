import { Link } from 'react-router'
import { LogoMark } from '@/components/logo'
import { NewsletterSignupForm } from '@/features/marketing/components/newsletter-signup-form'
import { useUser } from '@/lib/auth'
import { FacebookIcon, InstagramIcon, LinkedInIcon, XIcon } from './social-icons'

const columns = [
  {
    title: 'Product',
    links: [
      { to: '/features', label: 'Features' },
      { to: '/templates', label: 'Templates' },
      { to: '/use-cases', label: 'Use Cases' },
      { to: '/subscribe', label: 'Pricing' },
      { to: '/docs/api', label: 'API' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/contact', label: 'Contact' },
      { to: '/faq', label: 'FAQ' },
      { to: '/blog', label: 'Blog' },
    ],
  },
]

const accountLinks = [
  { to: '/dashboard', label: 'My QR Codes' },
  { to: '/account-settings', label: 'Account Settings' },
  { to: '/bulk-generation', label: 'Bulk Generation' },
  { to: '/subscribe', label: 'Subscription' },
]

const socials = [
  { href: 'https://x.com', label: 'Squarely on X', icon: XIcon },
  { href: 'https://www.linkedin.com', label: 'Squarely on LinkedIn', icon: LinkedInIcon },
  { href: 'https://www.instagram.com', label: 'Squarely on Instagram', icon: InstagramIcon },
  { href: 'https://www.facebook.com', label: 'Squarely on Facebook', icon: FacebookIcon },
]

export function Footer() {
  const { data: user, isLoading } = useUser()
  const showNewsletter = !isLoading && !user
  const visibleColumns = user ? [...columns, { title: 'Your account', links: accountLinks }] : columns

  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div className="grid content-start gap-4">
          <Link to="/" className="inline-flex items-center gap-2 text-xl font-bold text-white">
            <LogoMark /> Squarely
          </Link>
          <p className="text-sm text-slate-400">Beautiful QR codes that work everywhere, with the analytics to prove it.</p>
          <ul className="flex gap-3">
            {socials.map(({ href, label, icon: Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  aria-label={label}
                  target="_blank"
                  rel="noreferrer"
                  className="grid size-9 place-items-center rounded-lg bg-slate-800 text-slate-300 transition hover:bg-primary hover:text-white"
                >
                  <Icon className="size-4" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {visibleColumns.map(({ title, links }) => (
          <div key={title}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{title}</h2>
            <ul className="mt-4 grid gap-2 text-sm">
              {links.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to} className="hover:text-white">
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {showNewsletter && (
          <div>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Shark Tips newsletter</h2>
            <p className="mt-4 mb-3 text-sm text-slate-400">Weekly tips about QR codes and marketing strategies.</p>
            <NewsletterSignupForm />
          </div>
        )}
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-400 sm:flex-row sm:px-6">
          <p>© {new Date().getFullYear()} Squarely. All rights reserved.</p>
          <div className="flex gap-6">
            <Link to="/privacy" className="hover:text-white">
              Privacy
            </Link>
            <Link to="/terms" className="hover:text-white">
              Terms
            </Link>
          </div>
        </div>
      </div>
    </footer>
  )
}

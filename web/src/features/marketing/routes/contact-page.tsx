import { Clock, Mail, MessageCircle } from 'lucide-react'
import { Link } from 'react-router'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { ContactForm } from '../components/contact-form'
import { PageHeader } from '../components/page-header'
import { helpCategories, quickLinks, SUPPORT_EMAIL, SUPPORT_HOURS } from '../content/contact'
import { pageMeta } from '../content/meta'

const infoCards = [
  { icon: Mail, title: 'Email us', text: SUPPORT_EMAIL },
  { icon: Clock, title: 'Support hours', text: SUPPORT_HOURS },
  { icon: MessageCircle, title: 'Response time', text: 'We reply to every message within 24 hours.' },
]

export function ContactPage() {
  usePageTitle(siteTitle(pageMeta['/contact'].title))
  return (
    <>
      <PageHeader eyebrow="Contact" title="Get in touch">
        <p>Questions about a code, your account or working together? Send us a message.</p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 pb-16 sm:px-6 lg:grid-cols-[1fr_2fr]">
        <aside className="grid content-start gap-4">
          {infoCards.map(({ icon: Icon, title, text }) => (
            <div key={title} className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h2 className="font-semibold text-slate-900">{title}</h2>
                <p className="text-sm text-slate-600">{text}</p>
              </div>
            </div>
          ))}
          <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 className="font-semibold text-slate-900">Quick links</h2>
            <ul className="mt-3 grid gap-2 text-sm">
              {quickLinks.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to} className="font-medium text-primary hover:underline">
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </aside>
        <section aria-labelledby="contact-form-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h2 id="contact-form-heading" className="text-2xl font-bold text-slate-900">
            Send us a message
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">
            We answer {SUPPORT_HOURS}, and always within 24 hours.
          </p>
          <ContactForm />
        </section>
      </div>
      <section className="bg-slate-50 py-14">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 className="text-center text-2xl font-bold text-slate-900">What we can help with</h2>
          <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {helpCategories.map(({ title, description }) => (
              <div key={title} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm text-slate-600">{description}</p>
              </div>
            ))}
          </div>
        </div>
      </section>
    </>
  )
}

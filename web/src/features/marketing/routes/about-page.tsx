import { CheckCircle2 } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { aboutOffers, aboutStats, aboutStory, aboutValues } from '../content/about'
import { pageMeta } from '../content/meta'

export function AboutPage() {
  usePageTitle(siteTitle(pageMeta['/about'].title))
  return (
    <>
      <PageHeader eyebrow="About Us" title="QR codes that look good and always scan">
        <p>Squarely is a QR code generator and manager for people and businesses of every size.</p>
      </PageHeader>
      <section aria-label="Squarely in numbers" className="border-y border-slate-200 bg-white">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:px-6 md:grid-cols-4">
          {aboutStats.map(({ value, label }) => (
            <div key={label} className="flex flex-col-reverse text-center">
              <dt className="mt-1 text-sm font-medium text-slate-600">{label}</dt>
              <dd className="text-3xl font-extrabold text-secondary sm:text-4xl">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="mx-auto grid max-w-4xl gap-14 px-4 py-16 sm:px-6">
        <section>
          <h2 className="text-3xl font-bold text-slate-900">Our story</h2>
          <div className="mt-4 grid gap-4 text-lg text-slate-700">
            {aboutStory.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </div>
        </section>
        <section>
          <h2 className="text-3xl font-bold text-slate-900">What we value</h2>
          <div className="mt-6 grid gap-6 sm:grid-cols-2">
            {aboutValues.map(({ title, description }) => (
              <div key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-slate-600">{description}</p>
              </div>
            ))}
          </div>
        </section>
        <section>
          <h2 className="text-3xl font-bold text-slate-900">What we offer</h2>
          <ul className="mt-6 grid gap-3 text-slate-700">
            {aboutOffers.map((offer) => (
              <li key={offer} className="flex gap-3">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
                {offer}
              </li>
            ))}
          </ul>
        </section>
        <div className="flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/">Create a QR Code</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/features">Explore Features</Link>
          </Button>
        </div>
      </div>
    </>
  )
}

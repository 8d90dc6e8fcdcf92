import { CheckCircle2 } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { pageMeta } from '../content/meta'
import { useCases } from '../content/use-cases'

/** Twelve industries; each card shows its first 3 benefits (spec 02 §9). */
export function UseCasesPage() {
  usePageTitle(siteTitle(pageMeta['/use-cases'].title))
  return (
    <>
      <PageHeader eyebrow="Use Cases" title="QR codes for every industry">
        <p>How businesses and people put QR codes to work, and what they get out of it.</p>
      </PageHeader>
      <section className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {useCases.map(({ industry, description, benefits }) => (
            <div key={industry} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h2 className="text-lg font-semibold text-slate-900">{industry}</h2>
              <p className="mt-2 text-slate-600">{description}</p>
              <ul className="mt-4 grid gap-2 text-sm text-slate-700">
                {benefits.slice(0, 3).map((benefit) => (
                  <li key={benefit} className="flex gap-2">
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                    {benefit}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <div className="mt-14 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/">Create Your QR Code</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/templates">Browse Templates</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

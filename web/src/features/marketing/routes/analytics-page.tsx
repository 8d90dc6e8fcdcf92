import { BarChart3, Download, Globe2, MonitorSmartphone, CalendarDays, Activity } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { analyticsFeatures } from '../content/analytics'
import { pageMeta } from '../content/meta'

const icons = [Activity, MonitorSmartphone, BarChart3, Download, CalendarDays, Globe2]

export function AnalyticsPage() {
  usePageTitle(siteTitle(pageMeta['/features/analytics'].title))
  return (
    <>
      <PageHeader eyebrow="Analytics" title="QR Code Analytics & Tracking">
        <p>Know which of your printed codes people scan, when, and with what. Every dynamic code counts its scans.</p>
      </PageHeader>
      <section className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {analyticsFeatures.map(({ title, description }, i) => {
            const Icon = icons[i]
            return (
              <div key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="grid size-11 place-items-center rounded-xl bg-primary-50 text-primary">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
                <p className="mt-2 text-slate-600">{description}</p>
              </div>
            )
          })}
        </div>
        <div className="mt-14 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/auth">Start Tracking</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/features">All Features</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

import { ArrowRight, Crown } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { featureCategories, features, type Feature } from '../content/features'
import { pageMeta } from '../content/meta'

export function FeaturesPage() {
  usePageTitle(siteTitle(pageMeta['/features'].title))
  return (
    <>
      <PageHeader eyebrow="Features" title="Everything you need to make QR codes work">
        <p>From a free code for a flyer to hundreds of tracked codes across campaigns.</p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-16 px-4 pb-16 sm:px-6">
        {featureCategories.map((category) => (
          <section key={category.value} aria-labelledby={`features-${category.value}`}>
            <h2 id={`features-${category.value}`} className="text-2xl font-bold text-slate-900">
              {category.label}
            </h2>
            <p className="mt-1 text-slate-600">{category.blurb}</p>
            <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {features
                .filter((f) => f.category === category.value)
                .map((feature) => (
                  <FeatureCard key={feature.title} feature={feature} />
                ))}
            </div>
          </section>
        ))}
        <section className="rounded-2xl bg-secondary px-6 py-12 text-center text-white">
          <h2 className="text-3xl font-bold">Start with a free QR code</h2>
          <p className="mt-2 text-primary-100">No account needed. Upgrade when you want dynamic codes and analytics.</p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg" variant="secondary">
              <Link to="/">Create a QR Code</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/subscribe">See Pricing</Link>
            </Button>
          </div>
        </section>
      </div>
    </>
  )
}

function FeatureCard({ feature }: { feature: Feature }) {
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
        {feature.premium && (
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
            <Crown className="size-3" aria-hidden="true" /> Premium
          </span>
        )}
      </div>
      <p className="mt-2 text-slate-600">{feature.description}</p>
      {feature.to && (
        <span className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-primary">
          Learn more <ArrowRight className="size-4" aria-hidden="true" />
        </span>
      )}
    </>
  )
  const className = 'block rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:shadow-md'
  return feature.to ? (
    <Link to={feature.to} className={className}>
      {body}
    </Link>
  ) : (
    <div className={className}>{body}</div>
  )
}

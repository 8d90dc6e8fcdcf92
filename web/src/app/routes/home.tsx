import { lazy, Suspense } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { WhenNearScreen } from '@/components/when-near-screen'
import { LandingPage } from '@/features/marketing/routes/landing-page'
import { FreeTrialBanner } from '@/features/trial'
import { Link, useSearchParams } from 'react-router'
import { Card } from '@/components/ui/card'
import { useUser } from '@/lib/auth'
import { usePublicGenerator } from '@/lib/white-label'

// Visitors, who see the landing page, never load the dashboard's code.
const DashboardRoute = lazy(() => import('./dashboard').then((m) => ({ default: m.DashboardRoute })))
// The generator sits below the landing page's first screen: its code (and
// its form and colour libraries) loads as it comes near, keeping the first
// view of a phone within its JavaScript budget (BENCHMARKS.md). Its module
// rather than the feature's index, which also holds the dashboard's restyle dialog.
const Generator = lazy(() => import('@/features/generator/components/generator').then((m) => ({ default: m.Generator })))

/** '/' is the landing page, holding the generator and the trial offer, for visitors; the dashboard for signed-in users. */
export function HomeRoute() {
  const { data: user, isLoading } = useUser()
  // A visitor sent with a type to make (?qr=…, a template) wants the generator now.
  const [searchParams] = useSearchParams()
  const publicGenerator = usePublicGenerator()
  if (isLoading) return <Spinner />
  if (user) {
    return (
      <Suspense fallback={<Spinner />}>
        <DashboardRoute />
      </Suspense>
    )
  }
  // The placeholder (which the prerendered page shows) and the spinner take
  // the generator's height at each breakpoint, so nothing below moves when it
  // arrives. The placeholder is still: no animation runs for a load not begun.
  const height = 'min-h-[1126px] md:min-h-[1026px] lg:min-h-[580px]'
  // An instance for its members only (SQUARELY_PUBLIC_GENERATOR=false) asks visitors to sign in.
  const generator = !publicGenerator ? (
    <Card className="mx-auto max-w-xl p-8 text-center">
      <p className="text-lg font-semibold">Sign in to make QR codes on this instance.</p>
      <Link to="/auth" className="mt-3 inline-block font-medium text-primary underline">
        Sign in
      </Link>
    </Card>
  ) : (
    <WhenNearScreen
      eager={searchParams.has('qr')}
      placeholder={<div className={height} />}
      fallback={<Spinner label="Loading the generator..." className={height} />}
    >
      <Generator variant="landing" />
    </WhenNearScreen>
  )
  return <LandingPage generator={generator} trialBanner={<FreeTrialBanner />} />
}

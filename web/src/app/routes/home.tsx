import { Spinner } from '@/components/ui/spinner'
import { Generator } from '@/features/generator'
import { LandingPage } from '@/features/marketing/routes/landing-page'
import { FreeTrialBanner } from '@/features/trial'
import { useUser } from '@/lib/auth'
import { DashboardRoute } from './dashboard'

/** '/' is the landing page, holding the generator and the trial offer, for visitors; the dashboard for signed-in users. */
export function HomeRoute() {
  const { data: user, isLoading } = useUser()
  if (isLoading) return <Spinner />
  return user ? <DashboardRoute /> : <LandingPage generator={<Generator variant="landing" />} trialBanner={<FreeTrialBanner />} />
}

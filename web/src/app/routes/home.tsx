import { Spinner } from '@/components/ui/spinner'
import { LandingPage } from '@/features/marketing/routes/landing-page'
import { useUser } from '@/lib/auth'
import { DashboardRoute } from './dashboard'

/** '/' is the landing page for visitors and the dashboard for signed-in users. */
export function HomeRoute() {
  const { data: user, isLoading } = useUser()
  if (isLoading) return <Spinner />
  return user ? <DashboardRoute /> : <LandingPage />
}

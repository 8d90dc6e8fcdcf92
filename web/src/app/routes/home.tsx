import { Spinner } from '@/components/ui/spinner'
import { DashboardPage } from '@/features/dashboard/routes/dashboard-page'
import { LandingPage } from '@/features/marketing/routes/landing-page'
import { useUser } from '@/lib/auth'

/** '/' is the landing page for visitors and the dashboard for signed-in users. */
export function HomeRoute() {
  const { data: user, isLoading } = useUser()
  if (isLoading) return <Spinner />
  return user ? <DashboardPage /> : <LandingPage />
}

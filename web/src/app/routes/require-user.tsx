import { Navigate, Outlet } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { useUser } from '@/lib/auth'

/** Login-only routes: a spinner while the session loads, then the page or a redirect to /auth. */
export function RequireUser() {
  const { data: user, isLoading } = useUser()
  if (isLoading) return <Spinner />
  if (!user) return <Navigate to="/auth" replace />
  return <Outlet />
}

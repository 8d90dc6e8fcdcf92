import { ArrowLeft } from 'lucide-react'
import { Link, Navigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useUser } from '@/lib/auth'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { InstanceCard } from '../components/instance-card'
import { NewsletterManager } from '../components/newsletter-manager'

/** The admin panel (spec 02 §2): without a user it goes to /; the server decides who is an admin. */
export function NewsletterPage() {
  usePageTitle(siteTitle('Newsletter Manager'))
  const { data: user, isLoading } = useUser()
  if (isLoading) return <Spinner />
  if (!user) return <Navigate to="/" replace />
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Panel</h1>
        <Button asChild variant="outline">
          <Link to="/dashboard">
            <ArrowLeft aria-hidden="true" />
            Back to Dashboard
          </Link>
        </Button>
      </div>
      {user.isAdmin && <InstanceCard />}
      <NewsletterManager />
    </section>
  )
}

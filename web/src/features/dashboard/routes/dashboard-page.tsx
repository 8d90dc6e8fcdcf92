import { useSearchParams } from 'react-router'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function DashboardPage() {
  const [searchParams] = useSearchParams()
  const creating = searchParams.get('create') === 'true'
  usePageTitle(creating ? 'Create QR Code - Dashboard' : siteTitle('Dashboard'))
  return (
    <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">My QR Codes</h1>
      <p className="mt-2 text-slate-600">Your saved QR codes will be listed here. Saving codes is on its way.</p>
    </section>
  )
}

import { AlertCircle } from 'lucide-react'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

export function NotFoundPage() {
  usePageTitle(siteTitle('Page Not Found'))
  return (
    <section className="flex min-h-[60vh] items-center justify-center px-4">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="flex items-center gap-2">
          <AlertCircle className="size-8 text-red-500" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-slate-900">404 Page Not Found</h1>
        </div>
        <p className="mt-4 text-sm text-slate-600">Did you forget to add the page to the router?</p>
      </div>
    </section>
  )
}

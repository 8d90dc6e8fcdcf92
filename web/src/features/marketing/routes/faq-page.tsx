import { ChevronDown } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { faqs } from '../content/faq'
import { pageMeta } from '../content/meta'

/**
 * Twelve questions, one open at a time. Native <details> sharing a name
 * make that an exclusive accordion in the browser itself, so the answers
 * are in the page's HTML and work without JavaScript.
 */
export function FaqPage() {
  usePageTitle(siteTitle(pageMeta['/faq'].title))
  return (
    <>
      <PageHeader eyebrow="FAQ" title="Frequently Asked Questions">
        <p>Everything you wanted to know about making, printing and tracking QR codes with Squarely.</p>
      </PageHeader>
      <section className="mx-auto max-w-3xl px-4 pb-16 sm:px-6">
        <div className="rounded-2xl border border-slate-200 bg-white px-6 shadow-sm">
          {faqs.map(({ question, answer }) => (
            <details key={question} name="faq" className="group border-b border-slate-200 last:border-b-0">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-5 text-left text-base font-semibold text-slate-900 hover:text-primary [&::-webkit-details-marker]:hidden">
                {question}
                <ChevronDown className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180" aria-hidden="true" />
              </summary>
              <p className="pb-5 text-slate-600">{answer}</p>
            </details>
          ))}
        </div>
        <div className="mt-12 rounded-2xl bg-slate-50 p-8 text-center">
          <h2 className="text-2xl font-bold text-slate-900">Still have questions?</h2>
          <p className="mt-2 text-slate-600">Our team answers every message within 24 hours.</p>
          <Button asChild size="lg" className="mt-6">
            <Link to="/contact">Contact Support</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

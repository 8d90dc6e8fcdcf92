import { Link } from 'react-router'
import { LEGAL_UPDATED, type LegalSection } from '../content/legal'
import { PageHeader } from './page-header'

/** A short legal page: its sections, the date it changed, and where to ask. */
export function LegalPage({ title, intro, sections }: { title: string; intro: string; sections: LegalSection[] }) {
  return (
    <>
      <PageHeader title={title}>
        <p>{intro}</p>
        <p className="mt-2 text-sm text-slate-500">Last updated {LEGAL_UPDATED}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-3xl gap-10 px-4 pb-16 sm:px-6">
        {sections.map(({ heading, paragraphs }) => (
          <section key={heading}>
            <h2 className="text-2xl font-bold text-slate-900">{heading}</h2>
            <div className="mt-3 grid gap-3 text-slate-700">
              {paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          </section>
        ))}
        <p className="text-slate-700">
          Questions? Write to us through the{' '}
          <Link to="/contact" className="font-semibold text-primary hover:underline">
            contact page
          </Link>
          .
        </p>
      </div>
    </>
  )
}

import type { ReactNode } from 'react'

/** The heading band every marketing page opens with. */
export function PageHeader({ eyebrow, title, children }: { eyebrow?: string; title: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-primary-50 via-white to-white">
      <div className="mx-auto max-w-4xl px-4 py-14 text-center sm:px-6 md:py-20">
        {eyebrow && <p className="text-sm font-semibold uppercase tracking-wide text-primary">{eyebrow}</p>}
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{title}</h1>
        {children && <div className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">{children}</div>}
      </div>
    </section>
  )
}

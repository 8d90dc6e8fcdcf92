import type { ReactNode } from 'react'

/** A page whose content is still being built: its heading and one honest line. */
export function PagePlaceholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      <p className="mt-4 text-lg text-slate-600">{children}</p>
    </section>
  )
}

import { Clock, Star } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { isBlockedType, isQrType, qrTypeLabel } from '@/lib/qr-types'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { pageMeta } from '../content/meta'
import { templateCategories, templatesIn, type Template } from '../content/templates'

/** The session-storage key the generator reads a chosen template from (spec 02 §2). */
const TEMPLATE_KEY = 'selectedTemplate'

export function TemplatesPage() {
  usePageTitle(siteTitle(pageMeta['/templates'].title))
  const [category, setCategory] = useState<string>('all')
  const shown = templatesIn(category)
  return (
    <>
      <PageHeader eyebrow="Templates" title="QR Code Templates">
        <p>Start from a ready-made template, see its code, and make it yours in the generator.</p>
      </PageHeader>
      <section className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <div role="group" aria-label="Template categories" className="flex flex-wrap justify-center gap-2">
          {templateCategories.map(({ value, label }) => (
            <Button key={value} variant={category === value ? 'default' : 'outline'} aria-pressed={category === value} onClick={() => setCategory(value)}>
              {label}
            </Button>
          ))}
        </div>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((template) => (
            <TemplateCard key={template.id} template={template} />
          ))}
        </div>
        <div className="mt-14 rounded-2xl bg-slate-50 p-8 text-center">
          <h2 className="text-2xl font-bold text-slate-900">Need something else?</h2>
          <p className="mt-2 text-slate-600">Start from a blank code and choose any type.</p>
          <Button asChild size="lg" className="mt-6">
            <Link to="/">Create Custom QR Code</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

function TemplateCard({ template }: { template: Template }) {
  const navigate = useNavigate()
  // The shared type table decides what the generator can make today.
  const available = isQrType(template.qrType) && !isBlockedType(template.qrType)

  const useTemplate = () => {
    try {
      sessionStorage.setItem(TEMPLATE_KEY, JSON.stringify({ type: template.qrType, data: template.previewData, title: template.title }))
    } catch {
      // Without storage the type still comes through the query string.
    }
    navigate(`/?qr=${encodeURIComponent(template.qrType)}`)
  }

  return (
    <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-lg font-semibold text-slate-900">{template.title}</h3>
        {template.popular && (
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
            <Star className="size-3" aria-hidden="true" /> Popular
          </span>
        )}
      </div>
      <p className="mt-1 text-xs font-medium uppercase tracking-wide text-slate-500">
        {template.category} · {qrTypeLabel(template.qrType)}
      </p>
      <p className="mt-2 text-slate-600">{template.description}</p>
      <div className="my-5 grid h-44 place-items-center rounded-xl bg-slate-50">
        {!available ? (
          <p className="flex items-center gap-2 px-4 text-center text-sm text-slate-500">
            <Clock className="size-4 shrink-0" aria-hidden="true" /> This type is not available in the generator yet.
          </p>
        ) : (
          // Drawn by our renderer and kept as a file (internal/server TestSampleCodes): no request to the generator.
          <img
            src={`/codes/templates/${template.id}.svg`}
            alt={`Sample QR code: ${template.title}`}
            width={160}
            height={160}
            loading="lazy"
            className="size-40"
          />
        )}
      </div>
      <Button className="mt-auto" disabled={!available} onClick={useTemplate}>
        {available ? 'Use Template' : 'Coming Soon'}
      </Button>
    </article>
  )
}

import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Spinner } from '@/components/ui/spinner'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

interface Operation {
  operationId: string
  summary: string
  parameters?: { $ref?: string; name?: string; in?: string }[]
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> }
  responses: Record<string, { $ref?: string; description?: string }>
}

interface OpenApiDocument {
  info: { title: string; description: string; version: string }
  paths: Record<string, Record<string, Operation | unknown>>
}

const methods = ['get', 'post', 'patch', 'delete'] as const

const refName = (ref?: string) => ref?.split('/').pop()

const example = `curl -X POST https://your-site/api/v1/codes \\
  -H "Authorization: Bearer sq_…" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: order-1042" \\
  -d '{"kind":"dynamic","qrType":"url","destination":"https://example.com/menu","name":"Menu"}'`

/** /docs/api: the public API's reference, read from its own OpenAPI document. */
export function ApiDocsPage() {
  usePageTitle(siteTitle('API Documentation'))
  const doc = useQuery<OpenApiDocument>({ queryKey: ['/api/v1/openapi.json'] })

  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-8 px-4 py-12 sm:px-6">
      <header className="grid gap-3">
        <h1 className="text-4xl font-bold">Squarely API</h1>
        <p className="text-lg text-slate-600">
          Create and manage static and dynamic QR codes from your own shop, CRM or scripts. Create a key under your workspace&apos;s{' '}
          <Link to="/workspace/api-keys" className="text-primary underline">
            API keys
          </Link>{' '}
          tab
          , then send it as a Bearer token. The machine-readable reference is{' '}
          <a href="/api/v1/openapi.json" className="text-primary underline">
            /api/v1/openapi.json
          </a>{' '}
          (OpenAPI 3.1).
        </p>
      </header>

      <section className="grid grid-cols-1 gap-3">
        <h2 className="text-2xl font-semibold">Essentials</h2>
        <ul className="grid list-disc gap-2 break-words pl-6 text-slate-700">
          <li>Authenticate with <code>Authorization: Bearer sq_…</code>. Keys act as their owner: the same validation, plan rules and limits as the app apply.</li>
          <li>A code is one resource for both kinds: <code>kind</code> is static or dynamic; a dynamic code also has <code>destination</code>, <code>shortCode</code> and <code>url</code>.</li>
          <li>Every POST accepts an <code>Idempotency-Key</code> header: a repeat within 24 hours returns the first answer and creates nothing.</li>
          <li>Each key has a per-minute rate limit. Answers carry <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>; past the limit you get 429 with <code>Retry-After</code>.</li>
          <li>Errors are JSON: <code>{'{"message": "…", "errors": {"field": "…"}}'}</code>.</li>
        </ul>
        {/* Focusable so a keyboard user can scroll it sideways. */}
        <pre tabIndex={0} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary">
          <code>{example}</code>
        </pre>
      </section>

      <section className="grid grid-cols-1 gap-4">
        <h2 className="text-2xl font-semibold">Endpoints</h2>
        {doc.isPending && <Spinner />}
        {doc.isError && <Alert variant="destructive">The API reference could not be loaded. Please try again later.</Alert>}
        {doc.data &&
          Object.entries(doc.data.paths).flatMap(([path, item]) =>
            methods
              .filter((m) => item[m])
              .map((m) => {
                const op = item[m] as Operation
                const body = op.requestBody && refName(Object.values(op.requestBody.content)[0]?.schema.$ref)
                return (
                  <article key={`${m} ${path}`} className="grid grid-cols-1 gap-2 rounded-xl border border-slate-200 p-4">
                    <h3 className="flex flex-wrap items-center gap-2 break-all font-mono text-sm">
                      <span className="rounded bg-primary px-2 py-0.5 font-semibold uppercase text-white">{m}</span>
                      {path}
                    </h3>
                    <p>{op.summary}</p>
                    {body && <p className="text-sm text-slate-600">Body: {body}</p>}
                    <p className="text-sm text-slate-600">Answers: {Object.keys(op.responses).join(', ')}</p>
                  </article>
                )
              }),
          )}
      </section>
    </div>
  )
}

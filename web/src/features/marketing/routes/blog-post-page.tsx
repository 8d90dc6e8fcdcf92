import { Link } from 'react-router'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

/** No articles are published yet, so every id is unknown. */
export function BlogPostPage() {
  usePageTitle(siteTitle('Post Not Found'))
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Post Not Found</h1>
      <p className="mt-4 text-lg text-slate-600">This article does not exist (yet).</p>
      <Link to="/blog" className="mt-6 inline-block font-semibold text-primary hover:underline">
        Back to the blog
      </Link>
    </section>
  )
}

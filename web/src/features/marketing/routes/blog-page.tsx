import { ArrowRight, Search } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { PostMeta, Tag } from '../components/post-meta'
import { blogCategories, blogPosts } from '../content/blog/posts'
import { pageMeta } from '../content/meta'
import { filterPosts } from '../lib/blog-search'

export function BlogPage() {
  usePageTitle(siteTitle(pageMeta['/blog'].title))
  const [search, setSearch] = useState('')
  const [category, setCategory] = useState('All')
  const posts = filterPosts(blogPosts, search, category)
  return (
    <>
      <PageHeader eyebrow="Blog" title="QR Code Insights">
        <p>Guides, research and Shark Tips on making QR codes that people scan.</p>
      </PageHeader>
      <section className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <div className="mx-auto max-w-xl">
          <label htmlFor="blog-search" className="sr-only">
            Search articles
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
            <Input
              id="blog-search"
              type="search"
              placeholder="Search articles, topics and tags..."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="pl-9"
            />
          </div>
        </div>
        <div role="group" aria-label="Blog categories" className="mt-6 flex flex-wrap justify-center gap-2">
          {blogCategories.map((c) => (
            <Button key={c} size="sm" variant={category === c ? 'default' : 'outline'} aria-pressed={category === c} onClick={() => setCategory(c)}>
              {c}
            </Button>
          ))}
        </div>
        {posts.length === 0 ? (
          <div className="mt-14 text-center">
            <p className="text-xl font-semibold text-slate-900">No articles found</p>
            <p className="mt-2 text-slate-600">Try another search term or category.</p>
          </div>
        ) : (
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post) => (
              <article key={post.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <p className="text-xs font-semibold uppercase tracking-wide text-primary">{post.category}</p>
                <h2 className="mt-2 text-lg font-semibold text-slate-900">
                  <Link to={`/blog/${post.id}`} className="hover:text-primary">
                    {post.title}
                  </Link>
                </h2>
                <p className="mt-2 text-slate-600">{post.excerpt}</p>
                <ul className="mt-4 flex flex-wrap gap-2" aria-label="Tags">
                  {post.tags.slice(0, 3).map((tag) => (
                    <li key={tag}>
                      <Tag>{tag}</Tag>
                    </li>
                  ))}
                </ul>
                <div className="mt-4">
                  <PostMeta post={post} />
                </div>
                <Link
                  to={`/blog/${post.id}`}
                  className="mt-auto inline-flex items-center gap-1 pt-4 text-sm font-semibold text-primary hover:underline"
                  aria-label={`Read More: ${post.title}`}
                >
                  Read More <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              </article>
            ))}
          </div>
        )}
      </section>
    </>
  )
}

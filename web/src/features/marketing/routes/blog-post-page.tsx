import { ArrowLeft, Share2 } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { toast } from '@/lib/use-toast'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PostMeta, Tag } from '../components/post-meta'
import { findPost, type BlogPost } from '../content/blog/posts'
import { Markdown } from '../lib/markdown'

export function BlogPostPage() {
  const { id } = useParams()
  const post = findPost(id)
  usePageTitle(siteTitle(post ? post.title : 'Post Not Found'))
  if (!post) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Post Not Found</h1>
        <p className="mt-4 text-lg text-slate-600">We could not find that article. It may have moved.</p>
        <Link to="/blog" className="mt-6 inline-block font-semibold text-primary hover:underline">
          Back to the blog
        </Link>
      </section>
    )
  }
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <Link to="/blog" className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" /> All articles
      </Link>
      <header className="mt-6 border-b border-slate-200 pb-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-primary">{post.category}</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900">{post.title}</h1>
        <p className="mt-4 text-xl text-slate-600">{post.excerpt}</p>
        <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
          <PostMeta post={post} />
          <Button variant="outline" size="sm" onClick={() => sharePost(post)}>
            <Share2 aria-hidden="true" /> Share
          </Button>
        </div>
        <ul className="mt-4 flex flex-wrap gap-2" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag}>
              <Tag>{tag}</Tag>
            </li>
          ))}
        </ul>
      </header>
      <div className="mt-8">
        <Markdown source={post.content} />
      </div>
    </article>
  )
}

/** Shares through the device's share sheet where there is one, else copies the link. */
async function sharePost(post: BlogPost) {
  const url = window.location.href
  if (navigator.share) {
    try {
      await navigator.share({ title: post.title, text: post.excerpt, url })
    } catch {
      // The reader closed the share sheet: nothing to do.
    }
    return
  }
  try {
    await navigator.clipboard.writeText(url)
    toast({ title: 'Link copied', description: 'The article link is on your clipboard.' })
  } catch {
    toast({ title: 'Could not copy the link', description: url, variant: 'destructive' })
  }
}

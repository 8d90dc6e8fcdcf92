import { Calendar, Clock, User } from 'lucide-react'
import type { BlogPost } from '../content/blog/posts'
import { formatPostDate } from '../lib/blog-search'

/** A post's author, date and read time. */
export function PostMeta({ post }: { post: BlogPost }) {
  return (
    <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-500">
      <span className="inline-flex items-center gap-1">
        <User className="size-4" aria-hidden="true" /> {post.author}
      </span>
      <span className="inline-flex items-center gap-1">
        <Calendar className="size-4" aria-hidden="true" /> <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time>
      </span>
      <span className="inline-flex items-center gap-1">
        <Clock className="size-4" aria-hidden="true" /> {post.readTime}
      </span>
    </p>
  )
}

export function Tag({ children }: { children: string }) {
  return <span className="rounded-full bg-primary-50 px-2.5 py-0.5 text-xs font-medium text-secondary">{children}</span>
}

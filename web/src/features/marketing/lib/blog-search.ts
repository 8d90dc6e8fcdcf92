import type { BlogPost } from '../content/blog/posts'

/**
 * The posts matching the search (over title, excerpt and tags, ignoring
 * case and surrounding spaces) in the category ('All' for every one).
 */
export function filterPosts(posts: readonly BlogPost[], search: string, category: string): BlogPost[] {
  const q = search.trim().toLowerCase()
  return posts.filter((post) => {
    if (category !== 'All' && post.category !== category) return false
    if (!q) return true
    return (
      post.title.toLowerCase().includes(q) ||
      post.excerpt.toLowerCase().includes(q) ||
      post.tags.some((tag) => tag.toLowerCase().includes(q))
    )
  })
}

/** '2026-10-28' as 'October 28, 2026', the same in every time zone. */
export function formatPostDate(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

import { blogCategories, blogPosts } from '../content/blog/posts'
import { filterPosts, formatPostDate } from './blog-search'

describe('filterPosts', () => {
  it('finds posts by title, excerpt or tag, ignoring case and spaces', () => {
    expect(filterPosts(blogPosts, '  ERROR CORRECTION ', 'All').map((p) => p.id)).toContain('qr-code-error-correction-levels')
    // Only in an excerpt.
    const byExcerpt = filterPosts(blogPosts, 'fake stickers', 'All')
    expect(byExcerpt.map((p) => p.id)).toEqual(['qr-code-security-tips'])
    // Only in a tag (and not in any title or excerpt).
    const byTag = filterPosts(blogPosts, 'Phishing', 'All')
    expect(byTag.map((p) => p.id)).toEqual(['qr-code-security-tips'])
    expect(byTag[0].title.toLowerCase()).not.toContain('phishing')
    expect(byTag[0].excerpt.toLowerCase()).not.toContain('phishing')
  })

  it('does not search the body', () => {
    // 'quishing' appears only in the security post's content.
    expect(blogPosts.find((p) => p.id === 'qr-code-security-tips')?.content).toContain('quishing')
    expect(filterPosts(blogPosts, 'quishing', 'All')).toEqual([])
  })

  it('filters by category, and combines category and search', () => {
    const design = filterPosts(blogPosts, '', 'Design')
    expect(design.length).toBeGreaterThan(0)
    expect(design.every((p) => p.category === 'Design')).toBe(true)
    expect(filterPosts(blogPosts, 'printing', 'Design').map((p) => p.id)).toEqual(['qr-code-print-size-guide'])
    expect(filterPosts(blogPosts, 'printing', 'Technology').map((p) => p.id)).toEqual(['qr-code-error-correction-levels'])
    expect(filterPosts(blogPosts, 'printing', 'Security')).toEqual([])
  })

  it("returns every post for 'All' and an empty search, and none for nonsense", () => {
    expect(filterPosts(blogPosts, '', 'All')).toHaveLength(blogPosts.length)
    expect(filterPosts(blogPosts, 'zzqxv', 'All')).toEqual([])
  })
})

describe('blog content', () => {
  it('has at least 8 posts with unique ids, each in a listed category', () => {
    expect(blogPosts.length).toBeGreaterThanOrEqual(8)
    expect(new Set(blogPosts.map((p) => p.id)).size).toBe(blogPosts.length)
    for (const post of blogPosts) expect(blogCategories).toContain(post.category)
  })

  it('teaches the figures of spec 02 §9', () => {
    const text = (id: string) => blogPosts.find((p) => p.id === id)?.content ?? ''
    for (const figure of ['L (Low) | about 7%', 'M (Medium) | about 15%', 'Q (Quartile) | about 25%', 'H (High) | about 30%']) {
      expect(text('qr-code-error-correction-levels')).toContain(figure)
    }
    expect(text('qr-code-print-size-guide')).toContain('at least 2 x 2 cm')
    expect(text('qr-code-print-size-guide')).toContain('4 modules')
    for (const count of ['Small business | 3-5', 'Medium business | 10-50', 'Enterprise | 50-200+']) {
      expect(text('how-many-qr-codes-does-a-business-need')).toContain(count)
    }
  })
})

it('formats a post date the same in every time zone', () => {
  expect(formatPostDate('2026-10-28')).toBe('October 28, 2026')
  expect(formatPostDate('2026-01-01')).toBe('January 1, 2026')
})

/**
 * The build's prerender (issue 13): each public page rendered to HTML from
 * the same routes and content the app uses, with its title, description,
 * canonical link, Open Graph and Twitter tags and JSON-LD, so search
 * engines, link previews and readers without JavaScript get the page. Built
 * by `vite build --ssr` and driven by scripts/prerender.mjs; the app then
 * takes over in the browser. Absolute addresses use BASE_URL_TOKEN, which
 * the Go server replaces with SQUARELY_BASE_URL when it starts.
 */
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router'
import { blogPosts } from '@/features/marketing/content/blog/posts'
import { faqs } from '@/features/marketing/content/faq'
import { pageMeta, type PageMeta } from '@/features/marketing/content/meta'
import { userQueryKey } from '@/lib/auth'
import { createQueryClient } from '@/lib/query-client'
import { siteTitle, SITE_NAME } from '@/lib/use-page-title'
import { AppProvider } from './provider'
import { AppRoutes } from './router'
import { preloadRoute } from './routes'

export const BASE_URL_TOKEN = '__SQUARELY_BASE_URL__'

export interface PublicPage {
  path: string
  meta: PageMeta
  /** Open Graph type: 'website', or 'article' for a post. */
  type: 'website' | 'article'
  jsonLd?: object
}

/** Every public page, each once: the fixed pages and one per blog post. */
export function publicPages(): PublicPage[] {
  const fixed = Object.entries(pageMeta).map(([path, meta]): PublicPage => ({
    path,
    meta,
    type: 'website',
    jsonLd: path === '/faq' ? faqJsonLd() : undefined,
  }))
  const posts = blogPosts.map(
    (post): PublicPage => ({
      path: `/blog/${post.id}`,
      meta: { title: post.title, description: post.excerpt },
      type: 'article',
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: post.title,
        description: post.excerpt,
        datePublished: post.publishedAt,
        author: { '@type': 'Person', name: post.author },
        publisher: { '@type': 'Organization', name: SITE_NAME },
        keywords: post.tags.join(', '),
        articleSection: post.category,
        mainEntityOfPage: `${BASE_URL_TOKEN}/blog/${post.id}`,
      },
    }),
  )
  return [...fixed, ...posts]
}

function faqJsonLd() {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map(({ question, answer }) => ({
      '@type': 'Question',
      name: question,
      acceptedAnswer: { '@type': 'Answer', text: answer },
    })),
  }
}

/** The page's markup, as a visitor who is not signed in first sees it. */
export async function renderPage(path: string): Promise<string> {
  // The page's code first: a page still loading would render as its spinner.
  await preloadRoute(path)
  const queryClient = createQueryClient()
  queryClient.setQueryData(userQueryKey, null)
  return renderToString(
    <AppProvider queryClient={queryClient}>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppProvider>,
  )
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The head tags of page: title, description, canonical link, Open Graph, Twitter card and JSON-LD. */
export function headTags(page: PublicPage): string {
  const title = page.path === '/' ? `${SITE_NAME} - ${page.meta.title}` : siteTitle(page.meta.title)
  const url = BASE_URL_TOKEN + (page.path === '/' ? '/' : page.path)
  const tags = [
    `<title>${escapeAttr(title)}</title>`,
    `<meta name="description" content="${escapeAttr(page.meta.description)}" />`,
    `<link rel="canonical" href="${escapeAttr(url)}" />`,
    `<meta property="og:type" content="${page.type}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${escapeAttr(page.meta.title)}" />`,
    `<meta property="og:description" content="${escapeAttr(page.meta.description)}" />`,
    `<meta property="og:url" content="${escapeAttr(url)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${escapeAttr(page.meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeAttr(page.meta.description)}" />`,
  ]
  if (page.jsonLd) {
    // '<' escaped so no text in the data can close the script element.
    tags.push(`<script type="application/ld+json">${JSON.stringify(page.jsonLd).replace(/</g, '\\u003c')}</script>`)
  }
  return tags.join('\n    ')
}

/**
 * The built index.html with page's head tags and markup in place: the
 * template's own title and description give way to the page's.
 */
export function pageDocument(template: string, page: PublicPage, markup: string): string {
  const head = template.replace(/<title>[^<]*<\/title>\s*/, '').replace(/<meta name="description"[^>]*>\s*/, '')
  if (!head.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root')
  return head.replace('</head>', `  ${headTags(page)}\n  </head>`).replace('<div id="root"></div>', `<div id="root">${markup}</div>`)
}

export function sitemap(pages: PublicPage[]): string {
  const urls = pages.map((p) => `  <url><loc>${BASE_URL_TOKEN}${p.path === '/' ? '/' : p.path}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

export function robots(): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /d/\n\nSitemap: ${BASE_URL_TOKEN}/sitemap.xml\n`
}

import type { QueryClient } from '@tanstack/react-query'
import { lazy, useState, type ComponentType, type ReactElement } from 'react'
import { matchRoutes, type RouteObject } from 'react-router'
import { getUserQueryOptions } from '@/lib/auth'
import { PageErrorBoundary } from '@/components/page-error-boundary'
import { RootLayout } from './layout/root-layout'
import { HomeRoute } from './routes/home'
import { NotFoundPage } from './routes/not-found'
import { RequireUser } from './routes/require-user'

/** What a lazily loaded page keeps in its route's handle. */
interface PageHandle {
  preload: () => Promise<unknown>
  /** Asks for a signed-in page's first data (at the location's query string) while its code loads. */
  prefetch?: (queryClient: QueryClient, search: string) => Promise<unknown>
}

/**
 * A route that loads its page on first visit, so the first screen (landing,
 * sign-in, dashboard) does not wait for every other page's code. Before the
 * app renders, preloadRoute loads the first page's code, so a prerendered
 * page is adopted as it is. A later visit suspends: navigations are
 * transitions, so the page before stays on screen until the next one's code
 * is in. No Suspense boundary around the pages, on purpose: the prerendered
 * page then hydrates in the same pass as the rest, before the app reports
 * itself running (public.ts hands it what was typed before). A page whose
 * code fails to load, or that throws, shows PageErrorBoundary's message.
 */
function page<M extends Record<string, ComponentType>>(
  load: () => Promise<M>,
  name: keyof M,
  prefetch?: PageHandle['prefetch'],
): { element: ReactElement; handle: PageHandle } {
  let loaded: ComponentType | undefined
  const preload = () => load().then((m) => (loaded = m[name]))
  const Lazy = lazy<ComponentType>(() => preload().then((Component) => ({ default: Component })))
  function Page() {
    // Chosen once: the page is not remounted when its code arrives.
    const [Component] = useState(() => loaded ?? Lazy)
    return (
      <PageErrorBoundary>
        <Component />
      </PageErrorBoundary>
    )
  }
  return { element: <Page />, handle: { preload, prefetch } }
}

function handles(path: string): PageHandle[] {
  return (matchRoutes(routes, path) ?? []).flatMap(({ route }) => (route.handle as PageHandle | undefined) ?? [])
}

/** Loads the code of the pages at path (each page() route it matches). */
export function preloadRoute(path: string): Promise<unknown> {
  return Promise.all(handles(path).map((handle) => handle.preload()))
}

/**
 * Asks for the first data of the signed-in pages at the location, once the
 * session says someone is signed in; settles when it is in (or failed).
 */
export function prefetchRoute(queryClient: QueryClient, { pathname, search }: { pathname: string; search: string }): Promise<unknown> {
  const prefetches = handles(pathname).flatMap((handle) => handle.prefetch ?? [])
  if (prefetches.length === 0) return Promise.resolve()
  return queryClient.ensureQueryData(getUserQueryOptions()).then(
    (user) => user && Promise.all(prefetches.map((prefetch) => prefetch(queryClient, search))),
    () => undefined, // the page says what failed
  )
}

/**
 * Every page of the product. React Router matches paths case-insensitively
 * unless a route sets caseSensitive, which none here do.
 */
export const routes: RouteObject[] = [
  // The checkout pages stand alone, without the site's header and footer.
  { path: '/payment', ...page(() => import('@/features/payment/routes/payment-page'), 'PaymentPage') },
  { path: '/payment-success', ...page(() => import('@/features/payment/routes/payment-success-page'), 'PaymentSuccessPage') },
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/subscribe', ...page(() => import('@/features/subscribe/routes/subscribe-page'), 'SubscribePage') },
      { path: '/test', ...page(() => import('@/features/marketing/routes/test-page'), 'TestPage') },
      { path: '/faq', ...page(() => import('@/features/marketing/routes/faq-page'), 'FaqPage') },
      { path: '/templates', ...page(() => import('@/features/marketing/routes/templates-page'), 'TemplatesPage') },
      { path: '/features', ...page(() => import('@/features/marketing/routes/features-page'), 'FeaturesPage') },
      { path: '/features/analytics', ...page(() => import('@/features/marketing/routes/analytics-page'), 'AnalyticsPage') },
      { path: '/use-cases', ...page(() => import('@/features/marketing/routes/use-cases-page'), 'UseCasesPage') },
      { path: '/about', ...page(() => import('@/features/marketing/routes/about-page'), 'AboutPage') },
      { path: '/contact', ...page(() => import('@/features/marketing/routes/contact-page'), 'ContactPage') },
      { path: '/blog', ...page(() => import('@/features/marketing/routes/blog-page'), 'BlogPage') },
      { path: '/blog/:id', ...page(() => import('@/features/marketing/routes/blog-post-page'), 'BlogPostPage') },
      { path: '/privacy', ...page(() => import('@/features/marketing/routes/privacy-page'), 'PrivacyPage') },
      { path: '/terms', ...page(() => import('@/features/marketing/routes/terms-page'), 'TermsPage') },
      { path: '/docs/api', ...page(() => import('@/features/api-keys/routes/api-docs-page'), 'ApiDocsPage') },
      { path: '/auth', ...page(() => import('@/features/auth/routes/auth-page'), 'AuthPage') },
      // The admin panel sends visitors to / itself (spec 02 §2), not to /auth.
      { path: '/newsletter', ...page(() => import('@/features/admin/routes/newsletter-page'), 'NewsletterPage') },
      { path: '/set-password', ...page(() => import('@/features/auth/routes/set-password-page'), 'SetPasswordPage') },
      { path: '/verify-email', ...page(() => import('@/features/auth/routes/verify-email-page'), 'VerifyEmailPage') },
      // Workspaces (issue 22): the mailed invitation link works signed out too; it signs in and comes back.
      { path: '/invitations/accept', ...page(() => import('./routes/accept-invitation'), 'AcceptInvitationRoute') },
      {
        element: <RequireUser />,
        children: [
          {
            path: '/dashboard',
            // The prefetch's own small chunk: the landing page does not carry the code list's requests.
            ...page(() => import('./routes/dashboard'), 'DashboardRoute', (queryClient, search) =>
              import('@/features/dashboard/api/codes').then((m) => m.prefetchDashboard(queryClient, search)),
            ),
          },
          { path: '/account-settings', ...page(() => import('./routes/account-settings'), 'AccountSettingsRoute') },
          { path: '/white-label-admin', ...page(() => import('@/features/white-label/routes/white-label-admin-page'), 'WhiteLabelAdminPage') },
          { path: '/bulk-generation', ...page(() => import('@/features/bulk/routes/bulk-generation-page'), 'BulkGenerationPage') },
          { path: '/workspace/members', ...page(() => import('@/features/workspaces/routes/members-page'), 'MembersPage') },
          { path: '/workspace/brand-kits', ...page(() => import('@/features/brand-kits/routes/brand-kits-page'), 'BrandKitsPage') },
          { path: '/workspace/activity', ...page(() => import('@/features/workspaces/routes/activity-page'), 'ActivityPage') },
          { path: '/workspace/domains', ...page(() => import('./routes/workspace-domains'), 'WorkspaceDomainsRoute') },
          { path: '/workspace/imports', ...page(() => import('./routes/workspace-imports'), 'WorkspaceImportsRoute') },
          { path: '/workspace/products', ...page(() => import('@/features/gs1/routes/products-page'), 'ProductsPage') },
          { path: '/workspace/api-keys', ...page(() => import('./routes/workspace-api-keys'), 'WorkspaceApiKeysRoute') },
          { path: '/workspace/export', ...page(() => import('./routes/workspace-export'), 'WorkspaceExportRoute') },
          { path: '/webhooks', ...page(() => import('@/features/webhooks/routes/webhooks-page'), 'WebhooksPage') },
          // Hosted pages (issue 35).
          { path: '/pages', ...page(() => import('@/features/pages/routes/pages-list-page'), 'PagesListPage') },
          { path: '/pages/new/:type', ...page(() => import('@/features/pages/routes/page-editor-page'), 'PageEditorPage') },
          { path: '/pages/:id/edit', ...page(() => import('@/features/pages/routes/page-editor-page'), 'PageEditorPage') },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

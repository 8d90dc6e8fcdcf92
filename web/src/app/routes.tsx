import type { ComponentType } from 'react'
import type { RouteObject } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { RootLayout } from './layout/root-layout'
import { HomeRoute } from './routes/home'
import { NotFoundPage } from './routes/not-found'
import { RequireUser } from './routes/require-user'

/**
 * A route that loads its page on first visit, so the first screen (landing,
 * sign-in, dashboard) does not wait for every other page's code.
 */
function page<M extends Record<string, ComponentType>>(load: () => Promise<M>, name: keyof M) {
  return async () => ({ Component: (await load())[name] })
}

/**
 * Every page of the product. React Router matches paths case-insensitively
 * unless a route sets caseSensitive, which none here do.
 */
export const routes: RouteObject[] = [
  // The checkout pages stand alone, without the site's header and footer.
  {
    path: '/payment',
    lazy: page(() => import('@/features/payment/routes/payment-page'), 'PaymentPage'),
    hydrateFallbackElement: <Spinner />,
  },
  {
    path: '/payment-success',
    lazy: page(() => import('@/features/payment/routes/payment-success-page'), 'PaymentSuccessPage'),
    hydrateFallbackElement: <Spinner />,
  },
  {
    element: <RootLayout />,
    // Shown while the first page's code loads on a cold start.
    hydrateFallbackElement: <Spinner />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/subscribe', lazy: page(() => import('@/features/subscribe/routes/subscribe-page'), 'SubscribePage') },
      { path: '/test', lazy: page(() => import('@/features/marketing/routes/test-page'), 'TestPage') },
      { path: '/faq', lazy: page(() => import('@/features/marketing/routes/faq-page'), 'FaqPage') },
      { path: '/templates', lazy: page(() => import('@/features/marketing/routes/templates-page'), 'TemplatesPage') },
      { path: '/features', lazy: page(() => import('@/features/marketing/routes/features-page'), 'FeaturesPage') },
      { path: '/features/analytics', lazy: page(() => import('@/features/marketing/routes/analytics-page'), 'AnalyticsPage') },
      { path: '/use-cases', lazy: page(() => import('@/features/marketing/routes/use-cases-page'), 'UseCasesPage') },
      { path: '/about', lazy: page(() => import('@/features/marketing/routes/about-page'), 'AboutPage') },
      { path: '/contact', lazy: page(() => import('@/features/marketing/routes/contact-page'), 'ContactPage') },
      { path: '/blog', lazy: page(() => import('@/features/marketing/routes/blog-page'), 'BlogPage') },
      { path: '/blog/:id', lazy: page(() => import('@/features/marketing/routes/blog-post-page'), 'BlogPostPage') },
      { path: '/privacy', lazy: page(() => import('@/features/marketing/routes/privacy-page'), 'PrivacyPage') },
      { path: '/terms', lazy: page(() => import('@/features/marketing/routes/terms-page'), 'TermsPage') },
      { path: '/docs/api', lazy: page(() => import('@/features/api-keys/routes/api-docs-page'), 'ApiDocsPage') },
      { path: '/auth', lazy: page(() => import('@/features/auth/routes/auth-page'), 'AuthPage') },
      // The admin panel sends visitors to / itself (spec 02 §2), not to /auth.
      { path: '/newsletter', lazy: page(() => import('@/features/admin/routes/newsletter-page'), 'NewsletterPage') },
      { path: '/set-password', lazy: page(() => import('@/features/auth/routes/set-password-page'), 'SetPasswordPage') },
      { path: '/verify-email', lazy: page(() => import('@/features/auth/routes/verify-email-page'), 'VerifyEmailPage') },
      // Workspaces (issue 22): the mailed invitation link works signed out too; it signs in and comes back.
      { path: '/invitations/accept', lazy: page(() => import('./routes/accept-invitation'), 'AcceptInvitationRoute') },
      {
        element: <RequireUser />,
        children: [
          { path: '/dashboard', lazy: page(() => import('./routes/dashboard'), 'DashboardRoute') },
          { path: '/account-settings', lazy: page(() => import('./routes/account-settings'), 'AccountSettingsRoute') },
          { path: '/white-label-admin', lazy: page(() => import('@/features/white-label/routes/white-label-admin-page'), 'WhiteLabelAdminPage') },
          { path: '/bulk-generation', lazy: page(() => import('@/features/bulk/routes/bulk-generation-page'), 'BulkGenerationPage') },
          { path: '/workspace/members', lazy: page(() => import('@/features/workspaces/routes/members-page'), 'MembersPage') },
          { path: '/workspace/activity', lazy: page(() => import('@/features/workspaces/routes/activity-page'), 'ActivityPage') },
          { path: '/webhooks', lazy: page(() => import('@/features/webhooks/routes/webhooks-page'), 'WebhooksPage') },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

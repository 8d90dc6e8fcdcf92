import type { RouteObject } from 'react-router'
import { AccountSettingsPage } from '@/features/account/routes/account-settings-page'
import { NewsletterPage } from '@/features/admin/routes/newsletter-page'
import { AuthPage } from '@/features/auth/routes/auth-page'
import { BulkGenerationPage } from '@/features/bulk/routes/bulk-generation-page'
import { DashboardPage } from '@/features/dashboard/routes/dashboard-page'
import { AboutPage } from '@/features/marketing/routes/about-page'
import { AnalyticsPage } from '@/features/marketing/routes/analytics-page'
import { BlogPage } from '@/features/marketing/routes/blog-page'
import { BlogPostPage } from '@/features/marketing/routes/blog-post-page'
import { ContactPage } from '@/features/marketing/routes/contact-page'
import { FaqPage } from '@/features/marketing/routes/faq-page'
import { FeaturesPage } from '@/features/marketing/routes/features-page'
import { TemplatesPage } from '@/features/marketing/routes/templates-page'
import { TestPage } from '@/features/marketing/routes/test-page'
import { UseCasesPage } from '@/features/marketing/routes/use-cases-page'
import { PaymentPage } from '@/features/payment/routes/payment-page'
import { PaymentSuccessPage } from '@/features/payment/routes/payment-success-page'
import { SubscribePage } from '@/features/subscribe/routes/subscribe-page'
import { WhiteLabelAdminPage } from '@/features/white-label/routes/white-label-admin-page'
import { RootLayout } from './layout/root-layout'
import { HomeRoute } from './routes/home'
import { NotFoundPage } from './routes/not-found'
import { RequireUser } from './routes/require-user'

/**
 * Every page of the product. React Router matches paths case-insensitively
 * unless a route sets caseSensitive, which none here do.
 */
export const routes: RouteObject[] = [
  // The checkout pages stand alone, without the site's header and footer.
  { path: '/payment', element: <PaymentPage /> },
  { path: '/payment-success', element: <PaymentSuccessPage /> },
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/subscribe', element: <SubscribePage /> },
      { path: '/test', element: <TestPage /> },
      { path: '/faq', element: <FaqPage /> },
      { path: '/templates', element: <TemplatesPage /> },
      { path: '/features', element: <FeaturesPage /> },
      { path: '/features/analytics', element: <AnalyticsPage /> },
      { path: '/use-cases', element: <UseCasesPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/blog', element: <BlogPage /> },
      { path: '/blog/:id', element: <BlogPostPage /> },
      { path: '/auth', element: <AuthPage /> },
      {
        element: <RequireUser />,
        children: [
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/newsletter', element: <NewsletterPage /> },
          { path: '/account-settings', element: <AccountSettingsPage /> },
          { path: '/white-label-admin', element: <WhiteLabelAdminPage /> },
          { path: '/bulk-generation', element: <BulkGenerationPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

import { Outlet } from 'react-router'
import { Footer } from './footer'
import { Header } from './header'
import { ScrollRestoration } from './scroll-restoration'

export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <Header />
      {/* At least a screen tall: the footer starts below the fold, so a page whose
          content arrives after the first paint (a lazy route, a signed-in page
          waiting for the session) does not push a visible footer down. */}
      <main id="main" className="min-h-[100dvh] flex-1">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  )
}

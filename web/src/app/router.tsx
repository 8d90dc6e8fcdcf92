import { BrowserRouter, useRoutes } from 'react-router'
import { routes } from './routes'

/** The page at the current location; the prerender renders the same, so the app adopts its HTML. */
export function AppRoutes() {
  return useRoutes(routes)
}

/**
 * React Router's declarative router rather than its data router: the app
 * uses no loaders or actions, and the data router's code would cost a phone
 * some 15 KB of brotli JavaScript on the landing page (BENCHMARKS.md).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  )
}

import { createBrowserRouter, RouterProvider } from 'react-router'
import { routes } from './routes'

export const router = createBrowserRouter(routes)

/**
 * Resolves once the first page's code has loaded. Until then a prerendered
 * page's HTML stays on screen, rather than a spinner in its place.
 */
export function routerReady(): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve()
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return
      unsubscribe()
      resolve()
    })
  })
}

export function AppRouter() {
  return <RouterProvider router={router} />
}

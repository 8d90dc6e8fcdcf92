import { StrictMode, useEffect } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { getUserQueryOptions, userQueryKey, type User } from '@/lib/auth'
import { endBoot } from '@/lib/boot'
import { createQueryClient } from '@/lib/query-client'
import { cn } from '@/lib/utils'
import { whiteLabelConfigKey, whiteLabelConfigOptions, type WhiteLabelConfig } from '@/lib/white-label'
import { App } from './app'
import { prefetchRoute, preloadRoute } from './routes'

/** How long the app waits, once the first page's code is in, for that page's first data before drawing it without. */
const firstDataWait = 300

/** What the page already asked the server before the app started; the app does not ask again. */
export interface Known {
  user?: User | null
  whiteLabel?: WhiteLabelConfig
}

/** Calls done once React has committed the first render, hydrated or not. */
function Started({ done }: { done: () => void }) {
  useEffect(() => {
    endBoot()
    done()
  }, [done])
  return null
}

/**
 * Starts the app in #root and resolves once it runs. hydrate adopts the
 * prerendered HTML in place (same nodes: nothing moves, focus stays), which
 * needs the page rendered as the prerender did, for a visitor; otherwise
 * the app replaces what is there. Either way the first page's code is in
 * before React renders, so no spinner takes the page's place. When it does
 * not hydrate, the session, the brand and a signed-in page's first data are
 * asked for while that code loads, not after it.
 */
export async function startApp({ hydrate, known = {} }: { hydrate: boolean; known?: Known }): Promise<void> {
  const root = document.getElementById('root')
  if (!root) throw new Error('index.html has no #root element')
  const queryClient = createQueryClient()
  if (known.user !== undefined) queryClient.setQueryData(userQueryKey, known.user)
  if (known.whiteLabel) queryClient.setQueryData(whiteLabelConfigKey, known.whiteLabel)
  if (!hydrate) {
    // Hydration must draw what the prerender drew, for a visitor: public.ts
    // passes what it already knows instead.
    if (known.user === undefined) void queryClient.prefetchQuery(getUserQueryOptions())
    if (!known.whiteLabel) void queryClient.prefetchQuery(whiteLabelConfigOptions)
  }
  const data = hydrate ? Promise.resolve() : prefetchRoute(queryClient, location)
  const code = preloadRoute(location.pathname)
  // While the page's code downloads, the thread is idle: the first render's
  // one-off cost of the class merger's tables (about 25 ms of a slow phone's
  // first render) is paid now.
  if (!hydrate) setTimeout(() => cn('p-0', 'p-1'))
  await code
  // The page's first data usually comes before its code: drawn with it, the
  // page is laid out once, not once empty and again full. A slow answer
  // holds the page back a moment at most.
  await Promise.race([data, new Promise((resolve) => setTimeout(resolve, firstDataWait))])
  return new Promise((resolve) => {
    const app = (
      <StrictMode>
        <App queryClient={queryClient} />
        <Started done={resolve} />
      </StrictMode>
    )
    if (hydrate) hydrateRoot(root, app)
    else createRoot(root).render(app)
  })
}

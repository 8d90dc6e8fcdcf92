import { render } from '@testing-library/react'
import type { QueryClient } from '@tanstack/react-query'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { routes } from '@/app/routes'
import { createQueryClient } from '@/lib/query-client'

type Handler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>

export function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/**
 * Replaces global fetch with a table of 'METHOD /path' handlers; anything
 * else answers 404. A URL with a query goes to its exact entry, else to its
 * path's, which gets the parsed URL to read the query from. Returns the
 * mock so tests can inspect the calls.
 */
export function stubFetch(handlers: Record<string, Handler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const method = init?.method ?? 'GET'
    const parsed = new URL(url, 'http://localhost')
    const handler = handlers[`${method} ${url}`] ?? handlers[`${method} ${parsed.pathname}`]
    return handler ? handler(init, parsed) : new Response('not found', { status: 404, statusText: 'Not Found' })
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

/** A signed-in session: GET /api/user answers with this user. */
export const alice = {
  id: 1,
  username: 'alice@example.com',
  email: 'alice@example.com',
  emailVerified: true,
  workspace: { id: 1, name: 'Personal', role: 'owner' as const },
}

/** Renders the whole app at a path, with a fresh query cache unless one is given. */
export function renderApp(path: string, queryClient: QueryClient = createQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...utils, router }
}

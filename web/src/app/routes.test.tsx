import { act, screen, waitFor } from '@testing-library/react'
import type { RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { routes } from './routes'
import routeList from './routes.json'

/** The paths of the router's pages, the not-found page's '*' aside. */
function pathsOf(list: RouteObject[]): string[] {
  return list.flatMap((route) => [...(route.path && route.path !== '*' ? [route.path] : []), ...pathsOf(route.children ?? [])])
}

const signedOut = { 'GET /api/user': () => json({ message: 'Not authenticated' }, 401) }
const signedIn = { 'GET /api/user': () => json(alice) }

describe('routes', () => {
  // The server answers 404 outside this list (web/routes.go, internal/server/spa.go).
  it('lists in routes.json exactly the paths of the router', () => {
    expect([...routeList].sort()).toEqual(pathsOf(routes).sort())
  })

  it('matches paths case-insensitively: /AUTH shows the auth page', async () => {
    stubFetch(signedOut)
    renderApp('/AUTH')
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toBeInTheDocument()
  })

  it('shows the not-found page for an unknown path', async () => {
    stubFetch(signedOut)
    renderApp('/no-such-page')
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument()
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument()
  })

  it.each(['/account-settings', '/white-label-admin', '/bulk-generation', '/dashboard'])(
    'redirects %s to /auth when signed out',
    async (path) => {
      stubFetch(signedOut)
      const { router } = renderApp(path)
      await waitFor(() => expect(router.state.location.pathname).toBe('/auth'))
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
    },
  )

  it("shows a 'Loading...' spinner on a login-only route while the session loads", async () => {
    let answer: (response: Response) => void = () => {}
    const mock = stubFetch({ 'GET /api/user': () => new Promise<Response>((resolve) => (answer = resolve)) })
    const { router } = renderApp('/bulk-generation')
    await waitFor(() => expect(mock).toHaveBeenCalled())
    // The layout is up (header shown) and the guarded page waits behind a spinner.
    expect(await screen.findByRole('link', { name: 'Squarely home' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Loading...')
    expect(router.state.location.pathname).toBe('/bulk-generation')
    answer(json(alice))
    expect(await screen.findByRole('heading', { name: 'Bulk QR Code Generation' })).toBeInTheDocument()
  })

  it('treats a failing session call as signed out', async () => {
    stubFetch({ 'GET /api/user': () => new Response('down', { status: 503 }) })
    const { router } = renderApp('/dashboard')
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'))
    expect(await screen.findByText('Failed to fetch user data')).toBeInTheDocument()
  })

  it('shows a login-only page to a signed-in user', async () => {
    stubFetch(signedIn)
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'My QR Codes' })).toBeInTheDocument()
  })

  it('shows the landing page to visitors on /', async () => {
    stubFetch(signedOut)
    const { container } = renderApp('/')
    expect(await screen.findByText('10M+')).toBeInTheDocument()
    for (const claim of ['50K+', '99.9%', '24/7']) expect(screen.getByText(claim)).toBeInTheDocument()
    // The generator's code loads as its section nears the screen (at once in jsdom, which cannot tell).
    await waitFor(() => expect(container.querySelector('#qr-generator')).toHaveTextContent('Generate Your QR Code'))
    expect(screen.queryByRole('heading', { name: 'My QR Codes' })).not.toBeInTheDocument()
  })

  it('shows the dashboard to signed-in users on /', async () => {
    stubFetch(signedIn)
    renderApp('/')
    expect(await screen.findByRole('heading', { name: 'My QR Codes' })).toBeInTheDocument()
    expect(screen.queryByText('10M+')).not.toBeInTheDocument()
  })

  it.each([
    ['/subscribe', 'Choose Your Plan'],
    ['/features/analytics', 'QR Code Analytics & Tracking'],
    ['/faq', 'Frequently Asked Questions'],
    ['/blog/some-post', 'Post Not Found'],
    ['/payment-success', 'No payment to show'],
  ])('routes %s to its page', async (path, heading) => {
    stubFetch(signedOut)
    renderApp(path)
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
  })

  it('shows the checkout pages without the site header', async () => {
    stubFetch(signedOut)
    renderApp('/payment')
    expect(await screen.findByRole('heading', { level: 1, name: 'Product ID is required' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Squarely home' })).not.toBeInTheDocument()
  })
})

describe('page titles', () => {
  it.each([
    ['/auth', 'Login - Squarely'],
    ['/subscribe', 'QR Code Pricing, Subscription Plans'],
    ['/faq', 'FAQ - Squarely'],
  ])('%s is titled %s', async (path, title) => {
    stubFetch(signedOut)
    renderApp(path)
    await waitFor(() => expect(document.title).toBe(title))
  })

  it("titles /dashboard?create=true 'Create QR Code - Dashboard'", async () => {
    stubFetch(signedIn)
    renderApp('/dashboard?create=true')
    await waitFor(() => expect(document.title).toBe('Create QR Code - Dashboard'))
  })

  it('resets the title on leaving a page', async () => {
    document.title = 'Squarely'
    stubFetch(signedOut)
    const { router } = renderApp('/subscribe')
    await waitFor(() => expect(document.title).toBe('QR Code Pricing, Subscription Plans'))
    await act(() => router.navigate('/faq'))
    await waitFor(() => expect(document.title).toBe('FAQ - Squarely'))
    await act(() => router.navigate('/payment'))
    await waitFor(() => expect(document.title).toBe('Checkout - Squarely'))
  })

  it('restores the previous title when the page goes away', async () => {
    document.title = 'Squarely'
    stubFetch(signedOut)
    const { unmount } = renderApp('/faq')
    await waitFor(() => expect(document.title).toBe('FAQ - Squarely'))
    unmount()
    expect(document.title).toBe('Squarely')
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { json, renderApp, stubFetch } from '@/test/render-app'

// The FAQ page's code fails to arrive, as after a dropped connection or a
// deploy that replaced the file.
vi.mock('@/features/marketing/routes/faq-page', () => {
  throw new Error('Failed to fetch dynamically imported module')
})

describe('a page that fails to load', () => {
  it('keeps the site around it and offers a reload', async () => {
    stubFetch({ 'GET /api/user': () => json({ message: 'Not authenticated' }, 401) })
    const failed = vi.spyOn(console, 'error').mockImplementation(() => {})
    const reload = vi.fn()
    vi.stubGlobal('location', { ...window.location, reload })
    renderApp('/faq')
    expect(await screen.findByRole('heading', { name: "This page didn't load" })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Check your connection, then reload the page.')
    expect(screen.getByRole('link', { name: 'Squarely home' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Reload page' }))
    expect(reload).toHaveBeenCalledOnce()
    expect(failed).toHaveBeenCalled()
    vi.unstubAllGlobals()
    failed.mockRestore()
  })
})

import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { resetToasts } from '@/lib/use-toast'

// jsdom has no scrolling; the router's scroll restoration calls it on every navigation.
window.scrollTo = () => {}

afterEach(() => {
  cleanup()
  resetToasts()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

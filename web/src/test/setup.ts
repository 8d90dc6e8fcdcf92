import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { resetToasts } from '@/lib/use-toast'

// Pages load lazily (routes.tsx, routes/home.tsx); on a busy machine the first
// import of one can take longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 5000 })

// jsdom has no scrolling; the router's scroll restoration calls it on every navigation.
window.scrollTo = () => {}

// jsdom lacks what Radix's switch and select measure and capture with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => {}
Element.prototype.scrollIntoView ??= () => {}

afterEach(() => {
  cleanup()
  resetToasts()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

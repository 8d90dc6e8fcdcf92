import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { resetToasts } from '@/lib/use-toast'

// Waits are for the UI to settle, not a speed check: a loaded two-core CI
// machine can take seconds to render a dialog, so findBy* waits up to 10 s.
configure({ asyncUtilTimeout: 10_000 })

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

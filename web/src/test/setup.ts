import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { resetToasts } from '@/lib/use-toast'

afterEach(() => {
  cleanup()
  resetToasts()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

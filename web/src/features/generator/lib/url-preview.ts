/**
 * The live preview rules of the url type (spec 01 §5): 500 ms after the last
 * keystroke a URL is shown if it looks like a web address (https:// is
 * prepended when it has no scheme); 1000 ms after it, a URL the form's schema
 * accepts is shown as typed.
 */

import { acceptPreviewUrl } from '@/lib/web-address'

export const TYPING_DELAY_MS = 500
export const VALID_DELAY_MS = 1000

export interface UrlPreviewScheduler {
  /** The url field changed to raw; schemaValid says whether the form's schema accepts it. */
  update(raw: string, schemaValid: boolean): void
  cancel(): void
}

/**
 * Runs the two timers of the url preview: each update restarts both, and
 * onPreview receives the address to show. An empty field is reported at once
 * as null, so the preview clears.
 */
export function createUrlPreviewScheduler(onPreview: (url: string | null) => void): UrlPreviewScheduler {
  let typing: ReturnType<typeof setTimeout> | undefined
  let valid: ReturnType<typeof setTimeout> | undefined
  const cancel = () => {
    clearTimeout(typing)
    clearTimeout(valid)
  }
  return {
    update(raw, schemaValid) {
      cancel()
      if (!raw.trim()) {
        onPreview(null)
        return
      }
      typing = setTimeout(() => {
        const url = acceptPreviewUrl(raw)
        if (url) onPreview(url)
      }, TYPING_DELAY_MS)
      if (schemaValid) valid = setTimeout(() => onPreview(raw.trim()), VALID_DELAY_MS)
    },
    cancel,
  }
}

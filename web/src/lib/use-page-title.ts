import { useEffect } from 'react'

export const SITE_NAME = 'Squarely'

let brandTitle: string | undefined

/**
 * A white-label client's title ('{name} - QR Code Generator', spec 02 §2)
 * replaces every page's own title while it is set; undefined restores them.
 */
export function setBrandTitle(title: string | undefined) {
  brandTitle = title
  if (title) document.title = title
}

/** Sets the document title while the calling page is shown and restores the previous one on leaving. */
export function usePageTitle(title: string) {
  useEffect(() => {
    const previous = document.title
    document.title = brandTitle ?? title
    return () => {
      document.title = previous
    }
  }, [title])
}

/** '<Page> - Squarely', the title of most pages. */
export function siteTitle(page: string) {
  return `${page} - ${SITE_NAME}`
}

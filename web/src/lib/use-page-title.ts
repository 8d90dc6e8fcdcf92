import { useEffect } from 'react'

export const SITE_NAME = 'Squarely'

/** Sets the document title while the calling page is shown and restores the previous one on leaving. */
export function usePageTitle(title: string) {
  useEffect(() => {
    const previous = document.title
    document.title = title
    return () => {
      document.title = previous
    }
  }, [title])
}

/** '<Page> - Squarely', the title of most pages. */
export function siteTitle(page: string) {
  return `${page} - ${SITE_NAME}`
}

import { useEffect, useLayoutEffect, useRef } from 'react'
import { useLocation, useNavigationType } from 'react-router'

/** Where each visited page (a history entry's key) was left, for Back and Forward. */
const positions = new Map<string, number>()
let current = ''

/**
 * Scrolls between pages as a visitor expects: a new page starts at the top,
 * or at its #anchor; Back and Forward return to where the page was left.
 * The first page is left where it is: a prerendered page adopted in place
 * keeps the visitor's scroll, and a reload keeps the browser's own.
 */
export function ScrollRestoration() {
  const { key, hash } = useLocation()
  const type = useNavigationType()
  const first = useRef(true)

  useEffect(() => {
    const save = () => positions.set(current, scrollY)
    addEventListener('scroll', save, { passive: true })
    return () => removeEventListener('scroll', save)
  }, [])

  useLayoutEffect(() => {
    // Set before scrolling: the scroll events that follow belong to this page.
    current = key
    const anchor = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null
    const wasFirst = first.current
    first.current = false
    const back = type === 'POP' ? positions.get(key) : undefined
    if (back !== undefined) scrollTo(0, back)
    else if (anchor) anchor.scrollIntoView()
    else if (!wasFirst) scrollTo(0, 0)
  }, [key, hash, type])

  return null
}

import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react'

/**
 * Renders children (typically a lazy component) only once the spot they
 * take comes near the screen, so code for a part further down a page does
 * not compete with its first view on a slow phone. `eager` renders them at
 * once; so does a browser without IntersectionObserver. The placeholder,
 * fallback and children sit in the same div, so the app hydrates the
 * prerendered page (which shows the placeholder) as it is.
 */
export function WhenNearScreen({
  children,
  fallback,
  placeholder = fallback,
  eager = false,
}: {
  children: ReactNode
  /** Shown while the children's code loads. */
  fallback: ReactNode
  /** Shown until the spot comes near: the fallback unless given (a still box, say, where a spinner would tell of a load not begun). */
  placeholder?: ReactNode
  eager?: boolean
}) {
  // Not on the server (no window): the prerender shows the placeholder.
  const [near, setNear] = useState(() => eager || (typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined'))
  const spot = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = spot.current
    if (near || !el) return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '400px' })
    observer.observe(el)
    return () => observer.disconnect()
  }, [near])
  return <div ref={spot}>{near ? <Suspense fallback={fallback}>{children}</Suspense> : placeholder}</div>
}

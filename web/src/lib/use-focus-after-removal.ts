import { useLayoutEffect, useRef, type RefObject } from 'react'

/**
 * When a list loses the item whose control had focus (a Remove button goes
 * with its row), the browser leaves focus on the page, and a keyboard or
 * screen-reader user is thrown back to its start. When the list has
 * shrunk and focus was lost, this puts it on target(), what to act on
 * next, or else on the element given the returned ref: the list's heading
 * (tabIndex -1).
 */
export function useFocusAfterRemoval<T extends HTMLElement = HTMLHeadingElement>(
  count: number,
  target?: () => HTMLElement | null | undefined,
): RefObject<T | null> {
  const heading = useRef<T>(null)
  const before = useRef(count)
  useLayoutEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body
    if (count < before.current && lost) (target ? target() : heading.current)?.focus()
    before.current = count
  })
  return heading
}

import type * as DialogPrimitive from '@radix-ui/react-dialog'
import { lazy, Suspense, useState, type ComponentProps } from 'react'
import { cn } from '@/lib/utils'

// Radix's dialog (with its focus trap, scroll lock and layers) is not part
// of a page's first download: a closed dialog shows nothing, so its code
// loads when one first opens (./dialog-parts). Header and footer are plain.
const parts = () => import('./dialog-parts')
const DialogRoot = lazy(() => parts().then((m) => ({ default: m.DialogRoot })))
export const DialogContent = lazy(() => parts().then((m) => ({ default: m.DialogContent })))
export const DialogTitle = lazy(() => parts().then((m) => ({ default: m.DialogTitle })))
export const DialogDescription = lazy(() => parts().then((m) => ({ default: m.DialogDescription })))
export const DialogClose = lazy(() => parts().then((m) => ({ default: m.DialogClose })))

/** A controlled dialog: nothing until it first opens, then Radix's, which stays (its closing animation, its state). */
export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
  const [opened, setOpened] = useState(Boolean(props.open ?? props.defaultOpen))
  if (props.open && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <DialogRoot {...props} />
    </Suspense>
  )
}

// The last control that had focus: a dialog opened from a menu item opens as
// the item leaves the page, when the page's focus is already nowhere.
let lastFocused: HTMLElement | null = null
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLElement) lastFocused = e.target
  })
}

/**
 * What to hand focus back to: the focused control, or for an item of a menu
 * (which closes with its menu) the button that opened the menu, which names
 * the menu (aria-labelledby).
 */
export function openerOf(el: Element | null): HTMLElement | null {
  const focused = el instanceof HTMLElement && el !== document.body ? el : lastFocused
  const labelledBy = focused?.closest('[role="menu"]')?.getAttribute('aria-labelledby')
  return (labelledBy && document.getElementById(labelledBy)) || focused
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5', className)} {...props} />
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
}

import * as DialogPrimitive from '@radix-ui/react-dialog'
import { X } from 'lucide-react'
import { useEffect, useRef, type ComponentProps } from 'react'
import { cn } from '@/lib/utils'
import { openerOf } from './dialog'

// Radix's dialog behind ./dialog's parts, loaded the first time a dialog opens.
export const DialogRoot = DialogPrimitive.Root
export const DialogClose = DialogPrimitive.Close

/**
 * A dialog's window. Closing it (Escape, Cancel, ×, or after its action)
 * hands focus back to the control that had it when the dialog opened: Radix
 * does that only for a DialogTrigger, and ours are mostly opened by state.
 * When that control is gone (a deleted card's button), Radix's own choice stands.
 * Escape in a combobox whose list is open closes only the list: Radix hears
 * Escape on the document before the box's own handler could stop it.
 *
 * Escape pressed in the dialog closes the dialog even when a toast came up
 * after it opened: Radix gives Escape to the newest of its layers only, and a
 * toast is one, so the first Escape closed the toast (which the user was not
 * in) and left the dialog open. The dialog hears Escape on the window, before
 * any layer does on the document, and closes through its own Close button
 * (its onOpenChange); the toast stays until it times out.
 */
export function DialogContent({ className, children, onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  const opener = useRef<HTMLElement | null>(null)
  const content = useRef<HTMLDivElement>(null)
  const close = useRef<HTMLButtonElement>(null)
  // Whether Escape, pressed in the dialog, may close it (the default not prevented).
  const onEscape = (event: KeyboardEvent) => {
    if (event.target instanceof Element && event.target.matches('[role="combobox"][aria-expanded="true"]')) event.preventDefault()
    onEscapeKeyDown?.(event)
  }
  const onEscapeRef = useRef(onEscape)
  useEffect(() => {
    onEscapeRef.current = onEscape
  })
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const node = content.current
      if (event.key !== 'Escape' || event.defaultPrevented || node?.dataset.state !== 'open') return
      if (!inDialog(node, event.target)) return
      onEscapeRef.current(event)
      if (event.defaultPrevented) return
      // Handled: Radix's own Escape (the dialog's, or a toast's above it) does nothing more.
      event.preventDefault()
      close.current?.click()
    }
    window.addEventListener('keydown', onKeyDown, { capture: true })
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true })
  }, [])
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50 backdrop-blur-sm data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        ref={content}
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-2xl bg-white p-6 shadow-xl data-[state=open]:animate-pop-in',
          className,
        )}
        onOpenAutoFocus={(event) => {
          // Runs before focus moves in: the active element is still the opener.
          opener.current = openerOf(document.activeElement)
          onOpenAutoFocus?.(event)
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event)
          const el = opener.current
          if (event.defaultPrevented || !el?.isConnected) return
          event.preventDefault()
          el.focus({ preventScroll: true })
        }}
        onEscapeKeyDown={(event) => {
          // An Escape in the dialog was handled on the window, above; this one is from elsewhere.
          if (!event.defaultPrevented) onEscape(event)
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close ref={close} className="absolute right-4 top-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary">
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close</span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  )
}

/**
 * Whether an Escape at target is the dialog's: pressed in it, or with the
 * focus nowhere (on the page's body) while it is the newest dialog open.
 */
function inDialog(dialog: HTMLElement, target: EventTarget | null) {
  if (target instanceof Node && dialog.contains(target)) return true
  if (target !== document.body && target !== document.documentElement) return false
  const open = document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')
  return open[open.length - 1] === dialog
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold text-slate-900', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-slate-600', className)} {...props} />
}

import * as DialogPrimitive from '@radix-ui/react-dialog'
import { X } from 'lucide-react'
import { useRef, type ComponentProps } from 'react'
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
 */
export function DialogContent({ className, children, onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  const opener = useRef<HTMLElement | null>(null)
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50 backdrop-blur-sm data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
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
          if (event.target instanceof Element && event.target.matches('[role="combobox"][aria-expanded="true"]')) event.preventDefault()
          onEscapeKeyDown?.(event)
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close className="absolute right-4 top-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary">
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close</span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  )
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold text-slate-900', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-slate-600', className)} {...props} />
}

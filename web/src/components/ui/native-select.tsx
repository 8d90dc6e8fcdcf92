import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

/**
 * A plain <select>, styled like the inputs: the browser's own picker, which
 * phones render natively and every screen reader knows.
 */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30 disabled:opacity-60',
        className,
      )}
      {...props}
    />
  )
}

import { Loader2 } from 'lucide-react'
import { cn } from '@/lib/utils'

/** A centred spinner with a visible label; shown while data such as the session loads. */
export function Spinner({ label = 'Loading...', className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn('flex min-h-[40vh] flex-col items-center justify-center gap-3 text-slate-600', className)}>
      <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  )
}

/** A dialog's place while its code loads: the spinner over a dimmed page. */
export function DialogSpinner({ label }: { label: string }) {
  return <Spinner className="fixed inset-0 z-50 min-h-0 bg-slate-900/30" label={label} />
}

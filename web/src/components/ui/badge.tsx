import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

// A badge is one short label: it never wraps, so a narrow card pushes it to the next line whole instead.
const badgeVariants = cva('inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold [&_svg]:size-3', {
  variants: {
    tone: {
      neutral: 'bg-slate-100 text-slate-700',
      violet: 'bg-violet-100 text-violet-700',
      sky: 'bg-sky-100 text-sky-800',
      amber: 'bg-amber-100 text-amber-800',
      emerald: 'bg-emerald-100 text-emerald-800',
      red: 'bg-red-100 text-red-800',
    },
  },
  defaultVariants: { tone: 'neutral' },
})

export function Badge({ className, tone, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />
}

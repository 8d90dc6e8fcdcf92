import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/**
 * A form field's validation message; its id ties it to the input via
 * aria-describedby. className is for a field on a coloured background,
 * where red would not be readable.
 */
export function FieldError({ id, className, children }: { id: string; className?: string; children?: ReactNode }) {
  if (!children) return null
  return (
    <p id={id} role="alert" className={cn('text-sm text-red-600', className)}>
      {children}
    </p>
  )
}

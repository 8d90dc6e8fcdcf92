import type { ReactNode } from 'react'

/** A form field's validation message; its id ties it to the input via aria-describedby. */
export function FieldError({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null
  return (
    <p id={id} role="alert" className="text-sm text-red-600">
      {children}
    </p>
  )
}

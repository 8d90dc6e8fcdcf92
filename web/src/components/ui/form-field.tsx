import type { ComponentProps, ReactNode } from 'react'
import { FieldError } from './field-error'
import { Input } from './input'
import { Label } from './label'

type TextFieldProps = ComponentProps<'input'> & {
  id: string
  label: ReactNode
  /** The validation message; while set, the input is marked invalid and described by it. */
  error?: string
  /** Shown at the label's right, e.g. a "Forgot my password" link. */
  labelAside?: ReactNode
  /** Shown under the field, e.g. a hint. */
  children?: ReactNode
}

/**
 * A labelled text input with its validation message, wired for assistive
 * technology: the message's id is `${id}-error`. Takes react-hook-form's
 * register(...) result by spread; its ref reaches the input as a prop.
 */
export function TextField({ id, label, error, labelAside, children, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`
  const labelElement = <Label htmlFor={id}>{label}</Label>
  return (
    <div className="grid gap-2">
      {labelAside ? (
        <div className="flex items-center justify-between">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...inputProps} />
      <FieldError id={errorId}>{error}</FieldError>
      {children}
    </div>
  )
}

import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { serverFieldErrors } from './api-client'

/**
 * Puts a refused answer's field messages under the form's own fields, so each
 * is marked invalid and described by its message, and focuses the first one
 * in the form's order. Fields the form does not show are left to the caller's
 * toast. True when at least one field took a message.
 */
export function showServerFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): boolean {
  const messages = serverFieldErrors(error)
  if (!messages) return false
  let shown = false
  for (const field of fields) {
    const message = messages[field]
    if (!message) continue
    setError(field, { type: 'server', message }, { shouldFocus: !shown })
    shown = true
  }
  return shown
}

/**
 * Focuses the first control marked invalid in root (a group of checkboxes
 * takes focus with tabIndex -1, read with its message), centred in its
 * scrolling panel so that a sticky footer hides neither it nor its message.
 */
export function focusFirstInvalid(root: ParentNode) {
  const first = root.querySelector<HTMLElement>('[aria-invalid="true"]')
  first?.focus({ preventScroll: true })
  first?.scrollIntoView({ block: 'center' })
}

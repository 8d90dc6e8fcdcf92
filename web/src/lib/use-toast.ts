import { useSyncExternalStore, type ReactNode } from 'react'
import { failureMessage } from './api-client'

/** At most this many toasts are shown; a new one pushes the oldest out. */
export const TOAST_LIMIT = 1
/** A dismissed toast stays in the store this long (ms) before it is removed. */
export const TOAST_REMOVE_DELAY = 1_000_000

export type ToastVariant = 'default' | 'destructive'

export interface ToastInput {
  title?: ReactNode
  description?: ReactNode
  variant?: ToastVariant
}

export interface ToastItem extends ToastInput {
  id: string
  open: boolean
}

let toasts: ToastItem[] = []
let count = 0
const listeners = new Set<() => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()

function emit(next: ToastItem[]) {
  toasts = next
  listeners.forEach((listener) => listener())
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id)
      emit(toasts.filter((t) => t.id !== id))
    }, TOAST_REMOVE_DELAY),
  )
}

/** Closes one toast (or all); it is removed from the store after TOAST_REMOVE_DELAY. */
export function dismissToast(id?: string) {
  emit(
    toasts.map((t) => {
      if (id !== undefined && t.id !== id) return t
      scheduleRemoval(t.id)
      return { ...t, open: false }
    }),
  )
}

/** Shows a toast; returns its id. */
export function toast(input: ToastInput): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  const id = String(count)
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT))
  return id
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

function snapshot() {
  return toasts
}

/** The toasts currently in the store, newest first. */
export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot)
}

/** Clears the store; for tests. */
export function resetToasts() {
  removeTimers.forEach((timer) => clearTimeout(timer))
  removeTimers.clear()
  emit([])
}

/** An onError handler: a destructive toast titled title with the failure in words (failureMessage). */
export function toastFailure(title: string) {
  return (error: unknown) => {
    toast({ title, description: failureMessage(error), variant: 'destructive' })
  }
}

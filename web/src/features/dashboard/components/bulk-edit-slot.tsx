import { createContext, useContext, type ReactNode } from 'react'

/** The codes a bulk edit is opened on: /api/v1 ids, or the list's filters (GET /api/codes's parameters). */
export type BulkEditSelection = { ids: string[] } | { filter: Record<string, string> }

export interface BulkEditProps {
  selection: BulkEditSelection
  /** What is selected, for the dialog's title. */
  label: string
  open: boolean
  onOpenChange: (open: boolean) => void
  tags?: { id: number; name: string }[]
  folders?: { id: number; name: string }[]
  /** Moves the selection to another workspace instead (an admin's or owner's). */
  onMove?: () => void
}

/**
 * The bulk edit dialog, composed by the app (features do not import each
 * other); the list offers Bulk edit only when the page was given one.
 */
export const BulkEditSlot = createContext<((props: BulkEditProps) => ReactNode) | undefined>(undefined)

export const useBulkEditSlot = () => useContext(BulkEditSlot)

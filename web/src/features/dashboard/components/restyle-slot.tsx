import { createContext, useContext, type ReactNode } from 'react'
import type { SavedCode } from '../api/types'

export interface RestyleProps {
  code: SavedCode
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * The restyle dialog, composed by the app (it is the generator's, and
 * features do not import each other); cards offer Restyle only when the
 * page was given one.
 */
export const RestyleSlot = createContext<((props: RestyleProps) => ReactNode) | undefined>(undefined)

export const useRestyleSlot = () => useContext(RestyleSlot)

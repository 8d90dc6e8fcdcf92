import { useMutation, useQuery } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'
import { useActiveWorkspace, type Role } from '@/lib/workspace'
import type { BulkEditSelection } from '../components/bulk-edit-slot'
import { useInvalidateCodes } from './codes'
import type { SavedCode } from './types'

/** The codes a move takes: a bulk edit's selection. */
export type MoveSelection = BulkEditSelection

/** A move as POST /api/codes/move answers a small one and GET /api/codes/move/{id} shows any (docs/API.md "Moving codes"). */
export interface MoveResult {
  id: number
  status: 'queued' | 'running' | 'done' | 'failed'
  toWorkspaceId: number
  total: number
  processed: number
  failed: number
  error?: string
  failures: { id: string; reason: string }[]
}

/** A code's id as /api/v1, bulk edits and moves name it. */
export function v1ID(code: SavedCode) {
  return `${code.qrMode === 'dynamic' ? 'd' : 's'}_${code.id}`
}

/** The workspaces codes may move to: the user's others where they are an owner or admin. */
export function useMoveTargets(enabled: boolean) {
  const active = useActiveWorkspace()
  const list = useQuery<{ id: number; name: string; role: Role }[]>({ queryKey: ['/api/workspaces'], enabled })
  return { ...list, data: list.data?.filter((w) => w.id !== active?.id && (w.role === 'owner' || w.role === 'admin')) }
}

const running = (m: Pick<MoveResult, 'status'>) => m.status === 'queued' || m.status === 'running'

/**
 * Moves a selection and answers the finished move: a small one answers at
 * once, a larger one is followed until it ends, each reading passed to
 * onProgress. The lists are refetched after.
 */
export function useMoveCodes(pollMs = 500) {
  const invalidate = useInvalidateCodes()
  return useMutation({
    mutationFn: async ({ selection, to, onProgress }: { selection: MoveSelection; to: number; onProgress?: (m: MoveResult) => void }) => {
      const started = await apiJson<MoveResult | { id: number; total: number }>('POST', '/api/codes/move', { ...selection, toWorkspaceId: to })
      let move: MoveResult = 'status' in started ? started : { id: started.id, status: 'queued', toWorkspaceId: to, total: started.total, processed: 0, failed: 0, failures: [] }
      while (running(move)) {
        onProgress?.(move)
        await new Promise((resolve) => setTimeout(resolve, pollMs))
        move = await apiJson<MoveResult>('GET', `/api/codes/move/${move.id}`)
      }
      return move
    },
    onSettled: () => invalidate(),
  })
}

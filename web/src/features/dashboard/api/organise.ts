import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'
import { codePath, type Folder, type SavedCode, type Tag } from './types'

export const tagsKey = ['/api/tags']
export const foldersKey = ['/api/folders']

export function useTags() {
  return useQuery<Tag[]>({ queryKey: tagsKey })
}

export function useFolders() {
  return useQuery<Folder[]>({ queryKey: foldersKey })
}

/**
 * A change to the workspace's tags or folders: their list and the codes
 * (whose records name them) are read again.
 */
function useOrganiseMutation<V>(key: string[], call: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSettled: () => Promise.all([key, ['/api/codes']].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

export function useSaveTag() {
  return useOrganiseMutation(tagsKey, ({ id, name, color }: { id?: number; name: string; color: string }) =>
    id === undefined ? apiJson<Tag>('POST', '/api/tags', { name, color }) : apiJson<Tag>('PATCH', `/api/tags/${id}`, { name, color }),
  )
}

export function useDeleteTag() {
  return useOrganiseMutation(tagsKey, (id: number) => apiRequest('DELETE', `/api/tags/${id}`))
}

export function useSaveFolder() {
  return useOrganiseMutation(foldersKey, ({ id, name }: { id?: number; name: string }) =>
    id === undefined ? apiJson<Folder>('POST', '/api/folders', { name }) : apiJson<Folder>('PATCH', `/api/folders/${id}`, { name }),
  )
}

export function useDeleteFolder() {
  return useOrganiseMutation(foldersKey, (id: number) => apiRequest('DELETE', `/api/folders/${id}`))
}

/** The folder's refusal after the code's new tags were saved: only the folder failed. */
export class FolderNotSaved extends Error {
  constructor(readonly reason: unknown) {
    super('The tags were saved, the folder was not')
  }
}

/** Sets a code's tags and folder: one call each, only for what changed. */
export function useOrganiseCode() {
  return useOrganiseMutation(['/api/codes'], async ({ code, tagIds, folderId }: { code: SavedCode; tagIds?: number[]; folderId?: number | null }) => {
    if (tagIds) await apiJson('PUT', `${codePath(code)}/tags`, { tagIds })
    if (folderId === undefined) return
    try {
      await apiJson('PUT', `${codePath(code)}/folder`, { folderId })
    } catch (error) {
      throw tagIds ? new FolderNotSaved(error) : error
    }
  })
}

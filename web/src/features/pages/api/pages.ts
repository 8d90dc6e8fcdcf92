import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'
import type { PageType } from '../lib/page-types'

/** A hosted page as GET /api/pages answers it (docs/API.md "Hosted pages"). */
export interface HostedPage {
  id: number
  type: PageType
  title: string
  slug: string
  url: string
  language: string
  theme: PageTheme
  content: Record<string, unknown>
  version: number
  createdAt: string
  updatedAt: string
}

export interface PageTheme {
  brandKitId?: number
  fgColor: string
  bgColor: string
  accentColor: string
  logoUrl?: string
}

/** A page to save: the members POST and PUT take. */
export interface PageInput {
  type: PageType
  title: string
  slug?: string
  language?: string
  theme?: PageTheme
  content: Record<string, unknown>
}

export interface PageAnalytics {
  views: number
  uniqueVisitors: number
  clicks: { button: number; label: string; kind: string; url: string; clicks: number }[]
  contactSaves: number
  reveals: number
  calendarAdds: number
}

export const pagesKey = ['/api/pages']

export function usePages() {
  return useQuery<HostedPage[]>({ queryKey: pagesKey })
}

export function usePage(id: number | undefined) {
  return useQuery<HostedPage>({ queryKey: ['/api/pages', String(id)], enabled: id !== undefined })
}

export function usePageAnalytics(id: number, from?: string, to?: string) {
  const q = new URLSearchParams()
  if (from) q.set('from', from)
  if (to) q.set('to', to)
  const query = q.toString()
  return useQuery<PageAnalytics>({ queryKey: ['/api/pages', String(id), query ? `analytics?${query}` : 'analytics'] })
}

export function useSavePage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, page }: { id?: number; page: PageInput }) =>
      id === undefined ? apiJson<HostedPage>('POST', '/api/pages', page) : apiJson<HostedPage>('PUT', `/api/pages/${id}`, page),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pagesKey }),
  })
}

export function useDeletePage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/pages/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pagesKey }),
  })
}

/** A dynamic code that opens page id (POST /api/dynamic-qrcodes with pageId). */
export interface PageCode {
  id: number
  name: string
  shortCode: string
  shortUrl: string
}

export async function createPageCode(pageId: number, name: string): Promise<PageCode> {
  const form = new FormData()
  form.set('pageId', String(pageId))
  form.set('name', name)
  form.set('qrType', 'url')
  form.set('errorCorrectionLevel', 'M')
  return apiJson<PageCode>('POST', '/api/dynamic-qrcodes', form)
}

/** Uploads an image (POST /api/upload-image) and answers its URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData()
  form.set('imageFile', file)
  const answer = await apiJson<{ imageUrl: string }>('POST', '/api/upload-image', form)
  return answer.imageUrl
}

/** Uploads a menu file, a PDF (POST /api/upload-pdf) or an image, and answers its URL. */
export async function uploadMenuFile(file: File): Promise<string> {
  if (file.type !== 'application/pdf') return uploadImage(file)
  const form = new FormData()
  form.set('pdfFile', file)
  const answer = await apiJson<{ pdfUrl: string }>('POST', '/api/upload-pdf', form)
  return answer.pdfUrl
}

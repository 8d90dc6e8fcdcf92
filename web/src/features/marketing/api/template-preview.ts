import { useQuery } from '@tanstack/react-query'
import { ApiError, apiJson } from '@/lib/api-client'
import type { Template } from '../content/templates'

/** A template's sample code, drawn by our renderer as a live preview (not recorded). */
export async function fetchTemplatePreview(template: Template): Promise<string> {
  const body = { qrType: template.qrType, ...template.previewData, temporary: true, size: 160 }
  const res = await apiJson<{ qrCode: string }>('POST', '/api/generate-qrcode', body)
  return res.qrCode
}

export function useTemplatePreview(template: Template, enabled: boolean) {
  return useQuery({ queryKey: ['template-preview', template.id], queryFn: () => fetchTemplatePreview(template), enabled })
}

/** Whether the server refused the template's type itself (one it cannot make yet). */
export function isTypeRefused(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false
  try {
    const body = JSON.parse(error.body) as { errors?: Record<string, string> }
    return Boolean(body.errors?.qrType)
  } catch {
    return false
  }
}

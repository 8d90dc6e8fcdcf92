import { useQuery } from '@tanstack/react-query'
import { apiJson, serverFieldErrors } from '@/lib/api-client'
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
  return Boolean(serverFieldErrors(error)?.qrType)
}

import { acceptPreviewUrl } from '@/lib/web-address'
import { ApiError, apiJson, serverMessage } from '@/lib/api-client'
import type { BulkResult } from '../lib/run-bulk'

export type BulkType = 'url' | 'text'

export interface BulkOptions {
  qrType: BulkType
  fgColor: string
  bgColor: string
}

/**
 * POST /api/bulk-generate-qrcode for one item (spec 02 §7); failures become
 * error results (spec 02 §8) with the server's reason. A url item gets the
 * generator's rule first: a bare address such as example.com/c gets https://.
 */
export async function generateBulkItem(raw: string, id: number, options: BulkOptions): Promise<BulkResult> {
  const item = options.qrType === 'url' ? (acceptPreviewUrl(raw) ?? raw) : raw
  const qrData = options.qrType === 'url' ? { url: item } : { data: item }
  try {
    const res = await apiJson<{ qrCode: string }>('POST', '/api/bulk-generate-qrcode', {
      qrType: options.qrType,
      qrData,
      fgColor: options.fgColor,
      bgColor: options.bgColor,
      data: item,
    })
    return { id, data: item, status: 'success', qrCode: res.qrCode }
  } catch (error) {
    if (!(error instanceof ApiError)) return { id, data: item, status: 'error', error: 'Network error' }
    return { id, data: item, status: 'error', error: 'Failed to generate QR code', reason: serverMessage(error) }
  }
}

import { ApiError, apiJson, serverMessage } from '@/lib/api-client'
import type { BulkResult } from '../lib/run-bulk'

export type BulkType = 'url' | 'text'

export interface BulkOptions {
  qrType: BulkType
  fgColor: string
  bgColor: string
}

/** POST /api/bulk-generate-qrcode for one item (spec 02 §7); failures become error results (spec 02 §8). */
export async function generateBulkItem(item: string, id: number, options: BulkOptions): Promise<BulkResult> {
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
    // The server's reason (an invalid URL, too much data, …) is what the user can act on.
    const message = error instanceof ApiError ? (serverMessage(error) ?? 'Failed to generate QR code') : 'Network error'
    return { id, data: item, status: 'error', error: message }
  }
}

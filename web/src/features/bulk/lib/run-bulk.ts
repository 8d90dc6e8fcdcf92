/** Bulk runs: items go in batches of 5 concurrent requests (spec 02 §9). */
export const BATCH_SIZE = 5

export interface BulkResult {
  id: number
  data: string
  status: 'success' | 'error'
  qrCode?: string
  error?: string
  /** Why the server refused the item (its message, e.g. "Please enter a valid URL"). */
  reason?: string
}

export interface BulkCounts {
  success: number
  failed: number
}

export function countResults(results: BulkResult[]): BulkCounts {
  let success = 0
  for (const r of results) if (r.status === 'success') success++
  return { success, failed: results.length - success }
}

/**
 * Generates every item, BATCH_SIZE at a time, and calls onBatch with all
 * results so far after each batch. generate answers an item's result;
 * it must not throw (failures are error results).
 */
export async function runBulk(
  items: string[],
  generate: (item: string, id: number) => Promise<BulkResult>,
  onBatch: (results: BulkResult[]) => void,
): Promise<BulkResult[]> {
  let results: BulkResult[] = []
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    const batch = items.slice(start, start + BATCH_SIZE)
    const done = await Promise.all(batch.map((item, i) => generate(item, start + i + 1)))
    results = results.concat(done)
    onBatch(results)
  }
  return results
}

/** The Download All archive's entries: qr-code-{n}.svg numbered from 1 over the successes. */
export function svgEntries(results: BulkResult[]): { name: string; text: string }[] {
  return results
    .filter((r) => r.status === 'success' && r.qrCode)
    .map((r, i) => ({ name: `qr-code-${i + 1}.svg`, text: r.qrCode ?? '' }))
}

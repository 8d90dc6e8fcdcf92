import type { BulkEditDryRun } from '@/features/bulk-edit'
import { apiJson } from '@/lib/api-client'

function sheetForm(file: File, dryRun: boolean): FormData {
  const form = new FormData()
  form.append('file', file)
  if (dryRun) form.append('dryRun', 'true')
  return form
}

/** POST /api/codes/bulk-edit/sheet with dryRun: what each row would change, and the rows that would fail; nothing changes. */
export function checkSheetUpdate(file: File): Promise<BulkEditDryRun> {
  return apiJson<BulkEditDryRun>('POST', '/api/codes/bulk-edit/sheet', sheetForm(file, true))
}

/** POST /api/codes/bulk-edit/sheet: the bulk edit job of the rows that name a code. */
export function startSheetUpdate(file: File): Promise<{ id: number; total: number; failures: BulkEditDryRun['failures'] }> {
  return apiJson('POST', '/api/codes/bulk-edit/sheet', sheetForm(file, false))
}

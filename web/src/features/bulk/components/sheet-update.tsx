import { FileSpreadsheet } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FileInput } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { BulkEditPreview, BulkEditProgress, type BulkEditDryRun } from '@/features/bulk-edit'
import { useFolders, useTags } from '@/features/dashboard'
import { failureMessage } from '@/lib/api-client'
import { countOf } from '@/lib/count'
import { checkSheetUpdate, startSheetUpdate } from '../api/sheet-update'

/**
 * "Update existing codes from a spreadsheet": a CSV or XLSX keyed by short
 * code or id, each row its own changes, previewed as a bulk edit's dry run,
 * then applied as a bulk edit job (with its undo).
 */
export function SheetUpdate() {
  const [file, setFile] = useState<File>()
  const [preview, setPreview] = useState<BulkEditDryRun>()
  const [jobId, setJobId] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const tags = useTags()
  const folders = useFolders()
  const names = {
    tags: new Map((tags.data ?? []).map((t) => [t.id, t.name])),
    folders: new Map((folders.data ?? []).map((f) => [f.id, f.name])),
  }

  const reset = (f?: File) => {
    setFile(f)
    setPreview(undefined)
    setJobId(null)
    setError(undefined)
  }
  const run = async (step: (f: File) => Promise<void>) => {
    if (!file) return
    setBusy(true)
    setError(undefined)
    try {
      await step(file)
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }
  const check = () => run(async (f) => setPreview(await checkSheetUpdate(f)))
  const apply = () => run(async (f) => setJobId((await startSheetUpdate(f)).id))

  return (
    <Card className="mt-6" role="region" aria-labelledby="sheet-update-title">
      <CardHeader>
        <CardTitle id="sheet-update-title">Update existing codes from a spreadsheet</CardTitle>
        <CardDescription>
          Change up to 10,000 of your codes from a CSV or XLSX file of at most 10 MB, one code a row. The first row names the columns: shortCode or id
          (d_12, s_34), then any of destination, tags (separated by ;, replacing the code&apos;s tags), folder, paused (true or false) and domain,
          by name. An empty cell leaves that field as it is. You see every change before it is made, and can undo it for 24 hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="sheet-update-file">Spreadsheet of changes (.csv or .xlsx)</Label>
          <div className="flex min-w-0 items-center gap-2">
            <FileSpreadsheet className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <FileInput id="sheet-update-file" accept=".csv,.xlsx" onChange={(e) => reset(e.target.files?.[0])} />
          </div>
        </div>
        {error !== undefined && <Alert variant="destructive">{failureMessage(error)}</Alert>}
        {jobId !== null ? (
          <BulkEditProgress id={jobId} onClose={() => reset(file)} />
        ) : preview ? (
          <>
            <BulkEditPreview preview={preview} names={names} unit="row" />
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" disabled={busy} onClick={() => setPreview(undefined)}>
                Back
              </Button>
              <Button disabled={busy || preview.changing === 0} onClick={() => void apply()}>
                Apply to {countOf(preview.changing, 'code')}
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button variant="outline" disabled={!file || busy} onClick={() => void check()}>
              {busy ? 'Checking...' : 'Preview changes'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

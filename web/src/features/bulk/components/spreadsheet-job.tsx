import { FileSpreadsheet, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FileInput } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { useVerifiedDomains } from '@/lib/verified-domains'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { countOf } from '@/lib/count'
import {
  checkSpreadsheet,
  createBulkJob,
  isFinished,
  jobDownloadUrl,
  useBulkJob,
  type DryRun,
  type JobFormat,
  type RowError,
} from '../api/bulk-jobs'

/** Only this many row errors are listed; errors.csv in the ZIP has them all. */
const SHOWN_ERRORS = 100

/**
 * "Upload a spreadsheet": a CSV or XLSX file checked on the server (every
 * error by row and column), then saved to the account as one job whose
 * progress is polled, and downloaded as one ZIP.
 */
export function SpreadsheetJob() {
  const [file, setFile] = useState<File>()
  const [key, setKey] = useState('')
  const [check, setCheck] = useState<DryRun>()
  const [errors, setErrors] = useState<RowError[]>([])
  const [busy, setBusy] = useState(false)
  const [jobId, setJobId] = useState<number>()
  const [format, setFormat] = useState<JobFormat>('png')
  const [domain, setDomain] = useState('')
  const { data: job } = useBulkJob(jobId)
  const domains = useVerifiedDomains()
  const domainId = domain ? Number(domain) : null

  const choose = (f: File | undefined) => {
    setFile(f)
    // One key per chosen file: sending it twice makes one job.
    setKey(crypto.randomUUID())
    setCheck(undefined)
    setErrors([])
    setJobId(undefined)
  }

  const failed = (error: unknown) => {
    toast({ title: 'Upload failed', description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })
  }

  const runCheck = async () => {
    if (!file) return
    setBusy(true)
    try {
      const result = await checkSpreadsheet(file, domainId)
      setCheck(result)
      setErrors(result.errors)
    } catch (error) {
      failed(error)
    } finally {
      setBusy(false)
    }
  }

  const create = async () => {
    if (!file) return
    setBusy(true)
    try {
      const created = await createBulkJob(file, key, domainId)
      setErrors(created.errors ?? errors)
      setJobId(created.id)
    } catch (error) {
      failed(error)
    } finally {
      setBusy(false)
    }
  }

  // The rows refused up front, then any the job failed on while saving (the job's answer names them when it can).
  const shownErrors = [...errors, ...(job?.errors ?? []).filter((e) => !errors.some((x) => x.row === e.row && x.column === e.column))]
  const percent = job && job.total > 0 ? Math.round((job.processed / job.total) * 100) : 0
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Upload a spreadsheet</CardTitle>
        <CardDescription>
          Save up to 10,000 codes to your account from a CSV or XLSX file of at most 10 MB. The first row names the columns: url or text
          (or type and that type&apos;s fields), and optionally name, fileName, dynamic, shortCode (a dynamic code&apos;s chosen short code) and style fields such as fgColor and bgColor.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="bulk-sheet">Spreadsheet (.csv or .xlsx)</Label>
          <div className="flex min-w-0 items-center gap-2">
            <FileSpreadsheet className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <FileInput id="bulk-sheet" accept=".csv,.xlsx" onChange={(e) => choose(e.target.files?.[0])} />
          </div>
        </div>
        {domains.data && domains.data.length > 0 && (
          <div className="grid gap-1.5">
            <Label htmlFor="bulk-domain">Domain of the dynamic codes</Label>
            <NativeSelect
              id="bulk-domain"
              value={domain}
              disabled={jobId !== undefined}
              onChange={(e) => {
                setDomain(e.target.value)
                setCheck(undefined)
              }}
            >
              <option value="">Squarely (default)</option>
              {domains.data.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.domain}
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={!file || busy} onClick={() => void runCheck()}>
            Check file
          </Button>
          <Button disabled={!file || busy || jobId !== undefined} onClick={() => void create()}>
            {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
            Save codes to my account
          </Button>
        </div>

        {check && !job && (
          <p className="text-sm text-slate-700" role="status">
            {check.valid} of {countOf(check.total, 'row')} ready; {check.failed} with errors.
          </p>
        )}

        {job && (
          <div className="grid gap-2" role="status">
            <div className="h-2 overflow-hidden rounded-full bg-slate-100">
              <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-sm text-slate-700">
              {job.processed} of {countOf(job.total, 'row')} processed, {job.failed} failed
              {job.status === 'done' && ' — done'}
              {job.status === 'failed' && ` — stopped: ${job.error ?? ''}`}
            </p>
          </div>
        )}

        {job && isFinished(job.status) && (
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="bulk-format">Format</Label>
              <select
                id="bulk-format"
                className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm"
                value={format}
                onChange={(e) => setFormat(e.target.value as JobFormat)}
              >
                <option value="png">PNG</option>
                <option value="svg">SVG</option>
                <option value="pdf">PDF</option>
              </select>
            </div>
            <Button asChild>
              <a href={jobDownloadUrl(job.id, format)} download>
                Download ZIP
              </a>
            </Button>
          </div>
        )}

        {shownErrors.length > 0 && (
          <div className="max-h-64 overflow-y-auto rounded-lg border border-slate-200">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Rows with errors</caption>
              <thead className="bg-slate-50 text-xs text-slate-600">
                <tr>
                  <th className="px-3 py-2">Row</th>
                  <th className="px-3 py-2">Column</th>
                  <th className="px-3 py-2">Error</th>
                </tr>
              </thead>
              <tbody>
                {shownErrors.slice(0, SHOWN_ERRORS).map((e) => (
                  <tr key={`${e.row}-${e.column}`} className="border-t border-slate-100">
                    <td className="px-3 py-1.5">{e.row}</td>
                    <td className="px-3 py-1.5 font-mono">{e.column}</td>
                    <td className="px-3 py-1.5 text-red-700">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

import { Download, Loader2, Upload } from 'lucide-react'
import { useDeferredValue, useMemo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { FileInput } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { generateBulkItem, type BulkType } from '../api/generate-bulk-item'
import { ColorField } from '../components/color-field'
import { ResultsList } from '../components/results-list'
import { SheetUpdate } from '../components/sheet-update'
import { SpreadsheetJob } from '../components/spreadsheet-job'
import { saveBlob } from '@/lib/save-file'
import { zipTextFiles } from '../lib/download'
import { countItems, fileToInput, parseItems } from '../lib/parse-input'
import { countResults, runBulk, svgEntries, type BulkResult } from '../lib/run-bulk'
import { countOf } from '@/lib/count'

/** /bulk-generation (signed in): many codes from a list, one request per item (spec 02 §2). */
export function BulkGenerationPage() {
  usePageTitle(siteTitle('Bulk Generation'))
  const [input, setInput] = useState('')
  const [qrType, setQrType] = useState<BulkType>('url')
  const [fgColor, setFgColor] = useState('#000000')
  const [bgColor, setBgColor] = useState('#FFFFFF')
  const [results, setResults] = useState<BulkResult[]>([])
  const [generating, setGenerating] = useState(false)
  const [total, setTotal] = useState(0)

  // Counting 10,000 lines on every keystroke must not hold the typing up.
  const deferredInput = useDeferredValue(input)
  const itemCount = useMemo(() => countItems(deferredInput), [deferredInput])
  const counts = useMemo(() => countResults(results), [results])

  const readFile = async (file: File) => {
    setInput(fileToInput(file.name, await file.text()))
  }

  const generate = async () => {
    if (!input.trim()) {
      toast({ title: 'No data provided', description: 'Please enter data or upload a file.' })
      return
    }
    const items = parseItems(input)
    if (items.length === 0) {
      toast({ title: 'No valid data', description: 'Please provide valid data for QR code generation.' })
      return
    }
    setGenerating(true)
    setResults([])
    setTotal(items.length)
    try {
      const done = await runBulk(items, (item, id) => generateBulkItem(item, id, { qrType, fgColor, bgColor }), setResults)
      const { success, failed } = countResults(done)
      toast({ title: 'Bulk generation complete', description: `Generated ${countOf(success, 'QR code')} successfully. ${failed} failed.` })
    } catch {
      toast({ title: 'Generation failed', description: 'An error occurred during bulk generation.', variant: 'destructive' })
    } finally {
      setGenerating(false)
    }
  }

  const downloadAll = () => {
    const files = svgEntries(results)
    if (files.length === 0) {
      toast({ title: 'No QR codes to download', description: 'Generate QR codes first before downloading.' })
      return
    }
    toast({ title: 'Download started', description: `Downloading ${countOf(files.length, 'QR code')}.` })
    saveBlob(zipTextFiles(files), 'qr-codes.zip')
  }

  return (
    <div className="bg-slate-50/70">
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-10">
        <h1 className="mb-6 text-3xl font-bold tracking-tight text-slate-900">Bulk QR Code Generation</h1>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Input Data</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-5">
              <div className="grid gap-1.5">
                <Label htmlFor="bulk-file">Upload a file (.csv or .txt)</Label>
                <div className="flex min-w-0 items-center gap-2">
                  <Upload className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                  <FileInput
                    id="bulk-file"
                    accept=".csv,.txt"
                    onChange={(e) => {
                      const file = e.target.files?.[0]
                      if (file) void readFile(file)
                    }}
                  />
                </div>
              </div>
              <div className="grid gap-1.5">
                <div className="flex items-center justify-between">
                  <Label htmlFor="bulk-input">Enter data (one item per line)</Label>
                  <span className="text-xs text-slate-500">{itemCount} items</span>
                </div>
                <textarea
                  id="bulk-input"
                  rows={10}
                  className="w-full rounded-lg border border-slate-300 bg-white p-3 font-mono text-sm"
                  placeholder={'https://example.com\nhttps://example.org'}
                  value={input}
                  onChange={(e) => setInput(e.target.value)}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="bulk-type">QR Code Type</Label>
                <Select value={qrType} onValueChange={(v) => setQrType(v as BulkType)}>
                  <SelectTrigger id="bulk-type" aria-label="QR Code Type">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="url">Website URL</SelectItem>
                    <SelectItem value="text">Plain Text</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <ColorField id="bulk-fg" label="Foreground Color" value={fgColor} onChange={setFgColor} />
                <ColorField id="bulk-bg" label="Background Color" value={bgColor} onChange={setBgColor} />
              </div>
              <Button onClick={() => void generate()} disabled={generating || !input.trim()}>
                {generating ? (
                  <>
                    <Loader2 className="animate-spin" aria-hidden="true" />
                    Generating QR Codes...
                  </>
                ) : (
                  'Generate QR Codes'
                )}
              </Button>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Generation Results</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="grid grid-cols-2 gap-3">
                <div className="rounded-lg bg-emerald-50 p-3">
                  <p className="text-xs font-medium text-emerald-800">Success</p>
                  <p className="text-2xl font-bold text-emerald-900" data-testid="bulk-success">
                    {counts.success}
                  </p>
                </div>
                <div className="rounded-lg bg-red-50 p-3">
                  <p className="text-xs font-medium text-red-800">Failed</p>
                  <p className="text-2xl font-bold text-red-900" data-testid="bulk-failed">
                    {counts.failed}
                  </p>
                </div>
              </div>
              <Button variant="outline" onClick={downloadAll} disabled={counts.success === 0}>
                <Download aria-hidden="true" />
                Download All QR Codes ({counts.success})
              </Button>
              {generating && (
                <p className="text-sm text-slate-600" role="status">
                  {results.length} of {total} processed
                </p>
              )}
              {results.length > 0 ? (
                <ResultsList results={results} />
              ) : (
                !generating && <p className="py-8 text-center text-sm text-slate-500">No QR codes generated yet.</p>
              )}
            </CardContent>
          </Card>
        </div>
        <SpreadsheetJob />
        <SheetUpdate />
      </div>
    </div>
  )
}

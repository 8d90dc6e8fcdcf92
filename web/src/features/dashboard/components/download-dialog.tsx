import { Download, Loader2 } from 'lucide-react'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { DownloadOptionsFields, downloadSaved, preflightSaved, type DownloadFormat, type DownloadOptions } from '@/features/generator'
import { fileNameFor, saveBlob } from '@/lib/save-file'
import { cn } from '@/lib/utils'
import { toast } from '@/lib/use-toast'
import type { SavedCode } from '../api/types'

const formats: { value: DownloadFormat; label: string; hint: string }[] = [
  { value: 'png', label: 'PNG', hint: 'image' },
  { value: 'svg', label: 'SVG', hint: 'vector, web' },
  { value: 'pdf', label: 'PDF', hint: 'print' },
  { value: 'eps', label: 'EPS', hint: 'print' },
]

/**
 * Download: a saved code's file in a format with the generator's download options (print size,
 * resolution, reading distance with the preflight, CMYK, PNG size, transparency), drawn by the
 * server's image route and named after the code (its QR type when the name has no letters).
 */
export function DownloadDialog({ code, open, onOpenChange }: { code: SavedCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [format, setFormat] = useState<DownloadFormat>('png')
  const [options, setOptions] = useState<DownloadOptions>({})
  const [busy, setBusy] = useState(false)
  const check = useCallback((sizeMm: number, distanceCm?: number) => preflightSaved(code, sizeMm, distanceCm), [code])

  const download = async () => {
    setBusy(true)
    try {
      saveBlob(await downloadSaved(code, format, options), fileNameFor(code.name, code.qrType, format))
      toast({ title: 'QR Code Downloaded' })
      onOpenChange(false)
    } catch (error) {
      console.error('Failed to download QR code', error)
      toast({ title: 'Download Failed', description: 'There was a problem saving your QR code image.', variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Download</DialogTitle>
          <DialogDescription>
            {code.name}: choose a format and, for print, its size.
          </DialogDescription>
        </DialogHeader>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium text-slate-900">Format</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {formats.map((f) => (
              <label
                key={f.value}
                className={cn(
                  'flex cursor-pointer flex-col items-center rounded-lg border px-2 py-1.5 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary',
                  format === f.value ? 'border-primary bg-primary-50 text-slate-900' : 'border-slate-300 text-slate-700 hover:bg-slate-50',
                )}
              >
                <input type="radio" name={`download-format-${code.qrMode}-${code.id}`} value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} className="sr-only" />
                <span className="font-semibold">{f.label}</span>
                <span className="text-xs text-slate-600">{f.hint}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <DownloadOptionsFields value={options} onChange={setOptions} check={check} framed={code.enableFrame ?? false} className="mt-0" />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" onClick={() => void download()} disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            Download {format.toUpperCase()}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

import { ExternalLink } from 'lucide-react'
import type { ReactNode } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { qrTypeLabel } from '@/lib/qr-types'
import { codeImageUrl, type SavedCode } from '../api/types'

/** QR Code Preview: the code large, with what it encodes (and, for dynamic codes, where it leads). */
export function PreviewDialog({ code, open, onOpenChange }: { code: SavedCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>QR Code Preview</DialogTitle>
          <DialogDescription>
            {code.name} · {qrTypeLabel(code.qrType)}
          </DialogDescription>
        </DialogHeader>
        <div className="flex justify-center rounded-xl bg-slate-50 p-6">
          <img src={codeImageUrl(code)} alt={`QR code for ${code.name}`} className="size-72 max-w-full" />
        </div>
        <dl className="grid gap-3 text-sm">
          {code.qrMode === 'dynamic' ? (
            <>
              <Detail label="Short URL">
                <a href={code.shortUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-mono text-primary hover:underline">
                  {code.shortUrl}
                  <ExternalLink className="size-3.5" aria-hidden="true" />
                </a>
              </Detail>
              <Detail label="Destination">{code.destination}</Detail>
            </>
          ) : (
            <Detail label="Data">{code.data}</Detail>
          )}
        </dl>
      </DialogContent>
    </Dialog>
  )
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="break-all whitespace-pre-wrap text-slate-800">{children}</dd>
    </div>
  )
}

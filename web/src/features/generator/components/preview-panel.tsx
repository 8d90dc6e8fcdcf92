import { Download, FileImage, FileText, Loader2, QrCode } from 'lucide-react'
import { useEffect, useRef, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import type { DownloadFormat } from '../api/generator-api'

/** An SVG document as an image address: shown through <img>, no script in it can run. */
export function svgDataUrl(svg: string) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

interface PreviewPanelProps {
  /** What to show: an image address (an SVG data URL or a saved code's image). */
  src?: string
  /** The text the code encodes, shown under it. */
  data?: string
  loading: boolean
  error?: unknown
  /** Pixel width the code is drawn at (192 or 320; a frame adds 64). */
  width: number
  title: string
  hint: ReactNode
  /** Download buttons appear once there is something generated to download. */
  onDownload?: (format: DownloadFormat) => void
  downloading?: DownloadFormat | null
  children?: ReactNode
}

export function PreviewPanel({ src, data, loading, error, width, title, hint, onDownload, downloading, children }: PreviewPanelProps) {
  const downloads = useRef<HTMLDivElement>(null)
  const canDownload = onDownload !== undefined
  // Once there is something to download the buttons take the focus (Generate, disabled while it
  // works, has dropped it) and, on a phone where the panel sits below the form, come into view.
  useEffect(() => {
    if (!canDownload) return
    downloads.current?.querySelector('button')?.focus({ preventScroll: true })
    downloads.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [canDownload])
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{title}</h3>
        {loading && (
          <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" role="status">
            <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
            Updating…
          </span>
        )}
      </div>
      <div
        className={cn(
          'mt-4 grid min-h-72 place-items-center rounded-xl bg-[radial-gradient(circle_at_1px_1px,#e2e8f0_1px,transparent_0)] [background-size:16px_16px] p-4',
        )}
      >
        {src ? (
          <img
            src={src}
            alt="QR code preview"
            style={{ width }}
            className={cn('h-auto max-w-full drop-shadow-md transition-opacity', loading && 'opacity-70')}
          />
        ) : (
          <div className="flex max-w-56 flex-col items-center gap-3 text-center text-sm text-slate-500">
            <span className="grid size-16 place-items-center rounded-2xl bg-white text-slate-300 shadow-sm">
              <QrCode className="size-9" aria-hidden="true" />
            </span>
            {error ? (
              <p role="status">
                Preview unavailable{serverMessage(error) ? `: ${serverMessage(error)}` : '.'}
              </p>
            ) : (
              <p>{hint}</p>
            )}
          </div>
        )}
      </div>
      {src && data && (
        <p className="mt-3 break-all text-center text-xs text-slate-500 line-clamp-2" title={data}>
          {data}
        </p>
      )}
      {onDownload && (
        <div ref={downloads} className="mt-4 grid gap-2">
          <Button type="button" size="lg" onClick={() => onDownload('png')} disabled={downloading != null}>
            {downloading === 'png' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            Download PNG
          </Button>
          <div className="grid grid-cols-3 gap-2">
            <Button type="button" variant="outline" onClick={() => onDownload('svg')} disabled={downloading != null}>
              <FileImage aria-hidden="true" />
              SVG
            </Button>
            <Button type="button" variant="outline" onClick={() => onDownload('pdf')} disabled={downloading != null}>
              <FileText aria-hidden="true" />
              PDF
            </Button>
            <Button type="button" variant="outline" onClick={() => onDownload('eps')} disabled={downloading != null}>
              <FileText aria-hidden="true" />
              EPS
            </Button>
          </div>
        </div>
      )}
      {children}
    </div>
  )
}

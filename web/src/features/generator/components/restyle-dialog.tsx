import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Frame, Loader2, Palette, Sparkles } from 'lucide-react'
import { useCallback, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { BrandKitPicker, type BrandKit } from '@/features/brand-kits'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { previewStyle, restyleCode, savedListKeys, toFormData } from '../api/generator-api'
import { PREVIEW_DEBOUNCE_MS } from '../hooks/use-live-preview'
import { useDebouncedValue } from '@/lib/use-debounced-value'
import { previewPixels, styleFields, styleFromRecord, type StyleState } from '../lib/style'
import { ColorsTab } from './colors-tab'
import { ErrorCorrectionSelect, type ErrorCorrectionLevel } from './download-options'
import { FrameTab } from './frame-tab'
import { uploadedLogo, type ChosenLogo } from '../lib/logo'
import { LogoTab } from './logo-tab'
import { PreviewPanel, svgDataUrl } from './preview-panel'

/** A saved code as the lists answer it (docs/API.md "Records"); its style and logo fields are read too. */
export type RestyledCode = { id: number; name: string; qrMode: 'static' | 'dynamic' }

export interface RestyleDialogProps {
  code: RestyledCode
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** The saved code's logo, as the Logo tab shows a chosen one. */
function savedLogo(record: Record<string, unknown>): ChosenLogo | null {
  const path = typeof record.logoFilePath === 'string' ? record.logoFilePath : ''
  const id = Number(path.match(/^\/logo\/(\d+)$/)?.[1])
  if (!id) return null
  return uploadedLogo(id, typeof record.logoFileName === 'string' ? record.logoFileName : 'logo')
}

/**
 * Restyle a saved code with the generator's own Colors, Logo and Frame
 * tabs and a live preview drawn by the server. What the code encodes
 * stays: a dynamic code keeps its short link, so printed copies still scan.
 */
export function RestyleDialog({ code, open, onOpenChange }: RestyleDialogProps) {
  const queryClient = useQueryClient()
  const dynamic = code.qrMode === 'dynamic'
  const [record] = useState<Record<string, unknown>>(() => ({ ...code }))
  const [style, setStyle] = useState(() => styleFromRecord(record))
  const [logo, setLogo] = useState(() => savedLogo(record))
  const [level, setLevel] = useState(() => (typeof record.errorCorrectionLevel === 'string' ? record.errorCorrectionLevel : 'M') as ErrorCorrectionLevel)
  const pixels = previewPixels[style.logoSize]
  // The restyle form is the whole new style (docs/API.md "Restyle").
  const fields = { ...styleFields(style), logoId: logo?.id, errorCorrectionLevel: dynamic ? level : undefined }

  const key = useDebouncedValue(JSON.stringify({ ...fields, size: pixels }), PREVIEW_DEBOUNCE_MS)
  const preview = useQuery({
    queryKey: ['restyle-preview', code.qrMode, code.id, key],
    queryFn: ({ signal }) => previewStyle(code, toFormData(JSON.parse(key) as Record<string, unknown>), signal),
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  })

  const save = useMutation({
    mutationFn: () => restyleCode(code, toFormData(fields)),
    onSuccess: async () => {
      toast({ title: 'Code restyled', description: dynamic ? 'Its short link is unchanged, so printed copies still work.' : undefined })
      onOpenChange(false)
      await Promise.all(savedListKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    },
    onError: (error) =>
      toast({ title: 'Restyle failed', description: serverMessage(error) ?? 'There was a problem saving the new style.', variant: 'destructive' }),
  })

  const patchStyle = (patch: Partial<StyleState>) => setStyle((s) => ({ ...s, ...patch }))
  const applyKit = useCallback((kit: BrandKit) => {
    setStyle(styleFromRecord(kit))
    setLogo(kit.logoId === null ? null : uploadedLogo(kit.logoId, kit.logoFileName))
  }, [])
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[92vh] max-w-4xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Restyle QR Code</DialogTitle>
          <DialogDescription>
            {dynamic
              ? `Change how “${code.name}” looks. Its short link stays the same, so printed copies keep working.`
              : `Change how “${code.name}” looks. What it encodes stays the same.`}
          </DialogDescription>
        </DialogHeader>
        <div className="grid min-w-0 gap-6 md:grid-cols-[minmax(0,1fr)_18rem]">
          <div className="grid min-w-0 content-start gap-4">
            <BrandKitPicker onApply={applyKit} />
            <Tabs defaultValue="colors" className="min-w-0">
              <TabsList className="grid w-full grid-cols-3">
                <TabsTrigger value="colors" className="gap-1.5">
                  <Palette className="hidden size-4 sm:block" aria-hidden="true" />
                  Colors
                </TabsTrigger>
                <TabsTrigger value="logo" className="gap-1.5">
                  <Sparkles className="hidden size-4 sm:block" aria-hidden="true" />
                  Logo
                </TabsTrigger>
                <TabsTrigger value="frame" className="gap-1.5">
                  <Frame className="hidden size-4 sm:block" aria-hidden="true" />
                  Frame
                </TabsTrigger>
              </TabsList>
              <TabsContent value="colors" className="mt-5">
                <ColorsTab style={style} onChange={patchStyle} signedIn />
              </TabsContent>
              <TabsContent value="logo" className="mt-5 grid gap-5">
                <LogoTab signedIn logo={logo} onLogoChange={setLogo} logoSize={style.logoSize} onLogoSizeChange={(logoSize) => patchStyle({ logoSize })} />
                {dynamic && <ErrorCorrectionSelect value={level} onChange={setLevel} hasLogo={logo !== null} />}
              </TabsContent>
              <TabsContent value="frame" className="mt-5">
                <FrameTab style={style} onChange={patchStyle} />
              </TabsContent>
            </Tabs>
          </div>
          {/* On a phone the preview comes first and stays in view while the controls below scroll. */}
          <div className="sticky top-0 z-10 order-first bg-white md:static md:order-none">
            <PreviewPanel
              title="New style"
              src={preview.isError || !preview.data ? undefined : svgDataUrl(preview.data.qrCode)}
              data={preview.data?.data}
              loading={preview.isFetching}
              error={preview.isError ? preview.error : undefined}
              width={pixels + (style.enableFrame ? 64 : 0)}
              hint="Drawing the preview…"
            />
          </div>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" onClick={() => save.mutate()} disabled={save.isPending || preview.isError}>
            {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Save Style
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

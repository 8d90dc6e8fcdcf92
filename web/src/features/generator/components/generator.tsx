import { ArrowDown, Frame, Loader2, Palette, Plus, Sparkles, Target } from 'lucide-react'
import { lazy, Suspense, useCallback, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { BrandKitPicker, type BrandKit } from '@/features/brand-kits'
import { useUser } from '@/lib/auth'
import { imageVersion } from '@/lib/code-image'
import { qrTypeLabel, type QrType } from '@/lib/qr-types'
import { savedCodePath, type DownloadOptions, type SavedCode } from '../api/generator-api'
import { useCodeActions } from '../hooks/use-code-actions'
import { useLivePreview } from '../hooks/use-live-preview'
import { useInitialPreselection, useSubdomainPreselection, type Preselection } from '../hooks/use-preselection'
import { keepDesign, restoreDesign, type Design } from '../lib/pending-design'
import { dynamicDestinationField, isBlockedType, needsAccount } from '../lib/qr-types'
import { typeDefaults, typeResolver, withSampleData, type TypeValues } from '../lib/schemas'
import { defaultStyle, previewPixels, styleFields, styleFromRecord, type StyleState } from '../lib/style'
import { acceptPreviewUrl } from '@/lib/web-address'
import { uploadedLogo, type ChosenLogo } from '../lib/logo'
import { OptionGroup } from './option-group'
import { PreviewPanel, svgDataUrl } from './preview-panel'
import { TypeFields, type UploadedFile } from './type-fields'
import { TypeSelect } from './type-select'

type Tab = 'purpose' | 'colors' | 'logo' | 'frame'

// The first screen is the Purpose tab. The other tabs, the download options
// (shown after Generate) and the dialogs load when wanted, a tab's code as
// the pointer or the focus reaches its tab (BENCHMARKS.md, page weight).
const tabParts = {
  colors: () => import('./colors-tab'),
  logo: () => import('./logo-tab'),
  frame: () => import('./frame-tab'),
}
const ColorsTab = lazy(() => tabParts.colors().then((m) => ({ default: m.ColorsTab })))
const LogoTab = lazy(() => tabParts.logo().then((m) => ({ default: m.LogoTab })))
const FrameTab = lazy(() => tabParts.frame().then((m) => ({ default: m.FrameTab })))
const DownloadOptionsFields = lazy(() => import('./download-options').then((m) => ({ default: m.DownloadOptionsFields })))
const dialogs = () => import('./dialogs')
const PremiumFeatureDialog = lazy(() => dialogs().then((m) => ({ default: m.PremiumFeatureDialog })))
const FutureFeatureDialog = lazy(() => dialogs().then((m) => ({ default: m.FutureFeatureDialog })))
const AnalyticsUpsellDialog = lazy(() => dialogs().then((m) => ({ default: m.AnalyticsUpsellDialog })))
const AccountPromptDialog = lazy(() => dialogs().then((m) => ({ default: m.AccountPromptDialog })))
type Mode = 'static' | 'dynamic'
type DialogName = 'premium' | 'future' | 'analytics' | 'account'

export interface GeneratorProps {
  /** 'landing' for the home page's visitors, 'dashboard' for the signed-in create view. */
  variant?: 'landing' | 'dashboard'
  /** Called with the record after a signed-in user saves a code. */
  onSaved?: (code: SavedCode) => void
}


/** A tab's panel, whose code loads when it is first shown. */
function LazyPanel({ value, children }: { value: Tab; children: ReactNode }) {
  return (
    <TabsContent value={value} className="mt-6">
      <Suspense fallback={<Spinner label="Loading..." className="min-h-40" />}>{children}</Suspense>
    </TabsContent>
  )
}

/** Where a preselection lands: a blocked or premium type is refused with its dialog, as if chosen by hand. */
function startingPoint(pre: Preselection | null, signedIn: boolean, kept: Design | null) {
  if (kept && (signedIn || !needsAccount(kept.qrType))) return { type: kept.qrType, dialog: null, values: kept.values }
  if (!pre) return { type: 'url' as QrType, dialog: null }
  if (isBlockedType(pre.type)) return { type: 'url' as QrType, dialog: 'future' as const, refused: pre.type }
  if (needsAccount(pre.type) && !signedIn) return { type: 'url' as QrType, dialog: 'premium' as const }
  return { type: pre.type, dialog: null, values: pre.data === undefined ? undefined : withSampleData(pre.type, pre.data) }
}

/** The generator panel of spec 01 §2: purpose, colours, logo and frame, a live preview, generation and saving. */
export function Generator({ variant = 'landing', onSaved }: GeneratorProps) {
  const id = useId()
  const { data: user } = useUser()
  const signedIn = Boolean(user)

  const preselection = useInitialPreselection()
  // A design kept while the visitor signed up from a locked feature comes back first.
  const [kept] = useState(restoreDesign)
  const [start] = useState(() => startingPoint(preselection, signedIn, kept))
  const [qrType, setQrType] = useState<QrType>(start.type)
  const form = useForm<TypeValues>({
    resolver: typeResolver(qrType),
    defaultValues: start.values ?? typeDefaults(start.type),
    mode: 'onTouched',
  })
  const values = useWatch({ control: form.control }) as TypeValues

  const [style, setStyle] = useState<StyleState>(() => kept?.style ?? defaultStyle)
  const patchStyle = (patch: Partial<StyleState>) => setStyle((s) => ({ ...s, ...patch }))
  const [logo, setLogo] = useState<ChosenLogo | null>(null)
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null)
  const [mode, setMode] = useState<Mode>('static')
  const [name, setName] = useState(preselection?.title ?? '')
  const [tab, setTab] = useState<Tab>('purpose')
  const [dialog, setDialog] = useState<DialogName | null>(start.dialog)
  // The dialogs exist from the first one's opening on (their code is in by then).
  const [dialogsUsed, setDialogsUsed] = useState(dialog !== null)
  if (dialog && !dialogsUsed) setDialogsUsed(true)
  const [refusedType, setRefusedType] = useState<QrType | undefined>(start.refused)
  const previewRef = useRef<HTMLElement>(null)
  const [downloadOptions, setDownloadOptions] = useState<DownloadOptions>({})

  /** A brand kit replaces the whole design, its logo (or none) included. */
  const applyKit = useCallback((kit: BrandKit) => {
    setStyle(styleFromRecord(kit))
    setLogo(kit.logoId === null ? null : uploadedLogo(kit.logoId, kit.logoFileName))
  }, [])

  const pixels = previewPixels[style.logoSize]
  const sentStyle = { ...styleFields(style), logoId: logo?.id, size: pixels }
  const preview = useLivePreview(qrType, values, sentStyle)
  const canBeDynamic = dynamicDestinationField[qrType] !== undefined
  const dynamic = signedIn && mode === 'dynamic' && canBeDynamic

  const actions = useCodeActions({
    signedIn,
    variant,
    onSaved,
    formKey: JSON.stringify([qrType, values, sentStyle, mode]),
    onFieldErrors: (errors) => {
      for (const [field, message] of Object.entries(errors)) {
        const formField = field === 'locationName' ? 'name' : field === 'locationDescription' ? 'description' : field
        if (formField in form.getValues()) form.setError(formField, { message })
      }
    },
    onAccountPrompt: () => setDialog('account'),
    onReuploaded: (file) => {
      setUploaded(file)
      form.setValue(qrType === 'pdf' ? 'pdfFile' : 'imageFile', String(file.id))
    },
  })
  const { outcome } = actions

  /**
   * Choosing a type: blocked and premium ones open their dialog and change
   * nothing; others reset the form. The dialog opens once the list has
   * closed: chosen with the keyboard, the list hands focus back to its
   * button as it closes, which would otherwise land outside the new dialog
   * and dismiss it (and the dialog then returns focus to that button).
   */
  const selectType = (next: QrType) => {
    if (isBlockedType(next)) {
      setRefusedType(next)
      setTimeout(() => setDialog('future'))
      return
    }
    if (needsAccount(next) && !signedIn) {
      setTimeout(() => setDialog('premium'))
      return
    }
    setQrType(next)
    form.reset(typeDefaults(next))
    setUploaded(null)
    actions.clearOutcome()
  }

  useSubdomainPreselection(preselection !== null, selectType)
  /** Closing a type's dialog hands focus back to the type list's button, where the choice was made. */
  const backToTypeList = (event: Event) => {
    const trigger = document.getElementById(`${id}-type`)
    if (!trigger) return
    event.preventDefault()
    trigger.focus({ preventScroll: true })
  }

  const setScanTracking = (on: boolean) => {
    if (!signedIn) {
      setDialog('analytics')
      return
    }
    setMode(on ? 'dynamic' : 'static')
  }

  const submit = form.handleSubmit(
    (fields) => actions.run({ qrType, fields, style, sentStyle, logoId: logo?.id, uploaded, name, dynamic }),
    () => setTab('purpose'),
  )

  // The url field: a bare host is completed with https:// when the user leaves it.
  const completeUrl = () => {
    const raw = String(form.getValues('url') ?? '')
    const completed = acceptPreviewUrl(raw)
    if (completed && completed !== raw.trim()) form.setValue('url', completed, { shouldValidate: true })
  }

  const showSubmit = tab !== 'purpose' || !isBlockedType(qrType)
  const frameExtra = style.enableFrame ? 64 : 0
  let shown: { src?: string; data?: string } = { src: preview.svg ? svgDataUrl(preview.svg) : undefined, data: preview.data }
  if (outcome?.kind === 'generated') shown = { src: svgDataUrl(outcome.svg), data: outcome.data }
  if (outcome?.kind === 'saved') {
    shown = { src: `${savedCodePath(outcome.code)}/image?format=svg&v=${imageVersion(outcome.code)}`, data: outcome.code.shortUrl ?? outcome.code.data }
  }

  /** 'Start a new code': an empty form of the same type; the style stays for the next code. */
  const startNew = () => {
    actions.startNew()
    form.reset(typeDefaults(qrType))
    setUploaded(null)
    setName('')
  }

  // Any way to /auth from here (banners, dialogs, the sign-in hint) keeps the visitor's design for afterwards.
  const keepOnAuthLink = (e: MouseEvent) => {
    if (!signedIn && e.target instanceof Element && e.target.closest('a[href^="/auth"]')) keepDesign({ qrType, values, style })
  }

  return (
    <div
      onClickCapture={keepOnAuthLink}
      className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-8">
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-labelledby={`${id}-title`}
        className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm"
      >
        <div className="border-b border-slate-100 p-5 sm:p-6">
          <h2 id={`${id}-title`} className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
            Generate Your QR Code
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {variant === 'dashboard'
              ? 'Choose a purpose, style it, and save it to your account.'
              : 'Choose a purpose, fill in the details and make it yours.'}
          </p>
        </div>

        {signedIn && (
          <div className="px-5 pt-5 sm:px-6 sm:pt-6">
            {/* A kept design (back from signing in) is the user's; otherwise a new code starts from the default kit. */}
            <BrandKitPicker onApply={applyKit} design={{ ...styleFields(style), logoId: logo?.id ?? null }} applyDefault={!kept} />
          </div>
        )}
        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="p-5 sm:p-6">
          <TabsList className="grid w-full grid-cols-4">
            {(
              [
                ['purpose', 'Purpose', Target],
                ['colors', 'Colors', Palette],
                ['logo', 'Logo', Sparkles],
                ['frame', 'Frame', Frame],
              ] as const
            ).map(([value, label, Icon]) => (
              <TabsTrigger
                key={value}
                value={value}
                className="gap-1.5"
                onPointerEnter={() => value !== 'purpose' && void tabParts[value]()}
                onFocus={() => value !== 'purpose' && void tabParts[value]()}
              >
                <Icon className="hidden size-4 sm:block" aria-hidden="true" />
                {label}
              </TabsTrigger>
            ))}
          </TabsList>

          <TabsContent value="purpose" className="mt-6 grid gap-5">
            <div className="grid gap-1.5">
              <TypeSelect id={`${id}-type`} value={qrType} onChoose={(type) => selectType(type)} signedIn={signedIn} />
              {preselection?.title && <p className="text-xs text-slate-500">Template: {preselection.title}</p>}
            </div>
            {/* Below lg the preview sits under the form: one tap shows it while typing. */}
            <button
              type="button"
              className="inline-flex items-center gap-1.5 justify-self-start text-sm font-medium text-primary hover:underline lg:hidden"
              onClick={() => previewRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
            >
              <ArrowDown className="size-4" aria-hidden="true" />
              See the preview
            </button>
            <TypeFields
              key={qrType}
              type={qrType}
              form={form}
              uploaded={uploaded}
              onUploaded={setUploaded}
              onUrlBlur={qrType === 'url' || qrType === 'social' || qrType === 'ratings' || qrType === 'apps' ? completeUrl : undefined}
            />
          </TabsContent>
          <LazyPanel value="colors">
            <ColorsTab style={style} onChange={patchStyle} signedIn={signedIn} />
          </LazyPanel>
          <LazyPanel value="logo">
            <LogoTab
              signedIn={signedIn}
              logo={logo}
              onLogoChange={setLogo}
              logoSize={style.logoSize}
              onLogoSizeChange={(logoSize) => patchStyle({ logoSize })}
            />
          </LazyPanel>
          <LazyPanel value="frame">
            <FrameTab style={style} onChange={patchStyle} />
          </LazyPanel>
        </Tabs>

        <div className="grid gap-4 border-t border-slate-100 p-5 sm:p-6">
          <div className="flex items-center justify-between gap-4 rounded-xl bg-slate-50 p-4">
            <div>
              <Label htmlFor={`${id}-tracking`}>Scan tracking</Label>
              <p className="text-sm text-slate-500">
                {signedIn && !canBeDynamic
                  ? `${qrTypeLabel(qrType)} codes hold their content, so they are static.`
                  : 'Count every scan with a dynamic code you can edit after printing.'}
              </p>
            </div>
            <Switch
              id={`${id}-tracking`}
              checked={dynamic}
              disabled={signedIn && !canBeDynamic}
              onCheckedChange={setScanTracking}
            />
          </div>

          {signedIn && (
            <div className="grid gap-4 sm:grid-cols-2">
              <OptionGroup
                label="Code mode"
                value={dynamic ? 'dynamic' : 'static'}
                onChange={(m: Mode) => setMode(m)}
                disabled={!canBeDynamic}
                options={[
                  { value: 'static', label: 'Static' },
                  { value: 'dynamic', label: 'Dynamic' },
                ]}
              />
              <div className="grid content-start gap-1.5">
                <Label htmlFor={`${id}-name`}>Name (optional)</Label>
                <Input
                  id={`${id}-name`}
                  value={name}
                  maxLength={100}
                  placeholder={`${qrTypeLabel(qrType)} ${new Date().toISOString().slice(0, 10)}`}
                  onChange={(e) => setName(e.target.value)}
                />
              </div>
            </div>
          )}

          {showSubmit && (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
              <Button type="submit" size="lg" disabled={actions.busy} className="sm:min-w-52">
                {actions.busy && <Loader2 className="animate-spin" aria-hidden="true" />}
                {actions.busy ? 'Generating...' : 'Generate QR Code'}
              </Button>
              {!signedIn && (
                <p className="text-sm text-slate-600">
                  <Link to="/auth" className="font-semibold text-primary hover:underline">
                    Sign in
                  </Link>{' '}
                  to save your codes, add logos and track scans.
                </p>
              )}
            </div>
          )}
          {signedIn && actions.current && (
            <div className="flex flex-col gap-2 rounded-xl border border-primary/20 bg-primary-50 p-3 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
              <p className="min-w-0 break-words" data-testid="editing-code">
                Editing <strong className="font-semibold">“{actions.current.name}”</strong>: Generate QR Code updates it.
              </p>
              <Button type="button" variant="outline" size="sm" className="shrink-0" onClick={startNew}>
                <Plus aria-hidden="true" />
                Start a new code
              </Button>
            </div>
          )}
        </div>
      </form>

      <aside ref={previewRef} aria-label="Preview" className="grid min-w-0 scroll-mt-20 grid-cols-1 gap-4 lg:sticky lg:top-24">
        <PreviewPanel
          title={outcome ? (outcome.kind === 'saved' ? 'Saved QR code' : 'Your QR code') : 'Live preview'}
          src={shown.src}
          data={shown.data}
          loading={!outcome && preview.loading}
          error={outcome ? undefined : preview.error}
          width={pixels + frameExtra}
          hint={qrType === 'url' ? 'Type a web address to see your code.' : 'Fill in the required fields to see your code.'}
          onDownload={outcome ? (format) => void actions.download(format, downloadOptions) : undefined}
          downloading={actions.downloading}
        >
          {outcome?.kind === 'generated' && (
            <Suspense fallback={null}>
              <DownloadOptionsFields value={downloadOptions} onChange={setDownloadOptions} hasLogo={logo !== null} body={outcome.body} />
            </Suspense>
          )}
          {!outcome && (
            <p className="mt-4 text-center text-xs text-slate-500">
              {signedIn
                ? 'Press Generate QR Code to save it to your codes, then download it as PNG, SVG or PDF.'
                : 'Static codes are free forever. Press Generate QR Code, then download it as PNG, SVG or PDF.'}
            </p>
          )}
        </PreviewPanel>
      </aside>

      {dialogsUsed && (
        <Suspense fallback={null}>
          <PremiumFeatureDialog open={dialog === 'premium'} onOpenChange={(open) => setDialog(open ? 'premium' : null)} onCloseAutoFocus={backToTypeList} />
          <FutureFeatureDialog
            open={dialog === 'future'}
            onOpenChange={(open) => setDialog(open ? 'future' : null)}
            onCloseAutoFocus={backToTypeList}
            typeLabel={refusedType ? qrTypeLabel(refusedType) : undefined}
          />
          <AnalyticsUpsellDialog open={dialog === 'analytics'} onOpenChange={(open) => setDialog(open ? 'analytics' : null)} />
          <AccountPromptDialog open={dialog === 'account'} onOpenChange={(open) => setDialog(open ? 'account' : null)} />
        </Suspense>
      )}
    </div>
  )
}

import { lazy, Suspense, useCallback, useId, useMemo, useRef, useState, type MouseEvent } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { BrandKitPicker, type BrandKit } from '@/features/brand-kits'
import { useUser } from '@/lib/auth'
import { imageVersion } from '@/lib/code-image'
import type { QrType } from '@/lib/qr-types'
import { acceptPreviewUrl } from '@/lib/web-address'
import { preflight, preflightSaved, savedCodePath, type DownloadOptions, type PreflightCheck, type SavedCode } from '../api/generator-api'
import { useCodeActions } from '../hooks/use-code-actions'
import { useLivePreview } from '../hooks/use-live-preview'
import { useInitialPreselection, useSubdomainPreselection } from '../hooks/use-preselection'
import { uploadedLogo, type ChosenLogo } from '../lib/logo'
import { keepDesign, restoreDesign } from '../lib/pending-design'
import { dynamicDestinationField, isBlockedType, needsAccount } from '../lib/qr-types'
import { typeDefaults, typeResolver, type TypeValues } from '../lib/schemas'
import { startingPoint } from '../lib/starting-point'
import { defaultStyle, previewPixels, styleFields, styleFromRecord, type StyleState } from '../lib/style'
import { CodeOptions, type Mode } from './code-options'
import { GeneratorDialogs, type DialogName } from './generator-dialogs'
import { GeneratorTabs, type Tab } from './generator-tabs'
import { PreviewPanel, svgDataUrl } from './preview-panel'
import type { UploadedFile } from './type-fields'

// The download options (shown after Generate) load when wanted (BENCHMARKS.md, page weight).
const DownloadOptionsFields = lazy(() => import('./download-options').then((m) => ({ default: m.DownloadOptionsFields })))

export interface GeneratorProps {
  /** 'landing' for the home page's visitors, 'dashboard' for the signed-in create view. */
  variant?: 'landing' | 'dashboard'
  /** Called with the record after a signed-in user saves a code. */
  onSaved?: (code: SavedCode) => void
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
  const [shortCode, setShortCode] = useState('')
  const [shortCodeError, setShortCodeError] = useState<string>()
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
      if (errors.shortCode) setShortCodeError(errors.shortCode)
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
    (fields) => actions.run({ qrType, fields, style, sentStyle, logoId: logo?.id, uploaded, name, dynamic, shortCode }),
    () => setTab('purpose'),
  )

  // The url field: a bare host is completed with https:// when the user leaves it.
  const completeUrl = () => {
    const raw = String(form.getValues('url') ?? '')
    const completed = acceptPreviewUrl(raw)
    if (completed && completed !== raw.trim()) form.setValue('url', completed, { shouldValidate: true })
  }

  // The print preflight of what there is to download: the generated body, or the saved code as the server draws it.
  const checkPrint = useMemo<PreflightCheck | undefined>(() => {
    if (outcome?.kind === 'generated') return (sizeMm, distanceCm) => preflight(outcome.body, sizeMm, distanceCm)
    if (outcome?.kind === 'saved') return (sizeMm, distanceCm) => preflightSaved(outcome.code, sizeMm, distanceCm)
    return undefined
  }, [outcome])

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
    setShortCode('')
    setShortCodeError(undefined)
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
        <GeneratorTabs
          id={id}
          tab={tab}
          onTabChange={setTab}
          qrType={qrType}
          onChooseType={selectType}
          signedIn={signedIn}
          templateTitle={preselection?.title}
          onShowPreview={() => previewRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
          form={form}
          uploaded={uploaded}
          onUploaded={setUploaded}
          onUrlBlur={completeUrl}
          style={style}
          onStyleChange={patchStyle}
          logo={logo}
          onLogoChange={setLogo}
        />
        <CodeOptions
          id={id}
          signedIn={signedIn}
          qrType={qrType}
          canBeDynamic={canBeDynamic}
          dynamic={dynamic}
          onScanTrackingChange={setScanTracking}
          onModeChange={setMode}
          name={name}
          onNameChange={setName}
          shortCode={shortCode}
          onShortCodeChange={(code) => {
            setShortCode(code)
            setShortCodeError(undefined)
          }}
          shortCodeError={shortCodeError}
          showSubmit={showSubmit}
          busy={actions.busy}
          editing={actions.current}
          onStartNew={startNew}
        />
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
          {outcome && (
            <Suspense fallback={null}>
              <DownloadOptionsFields
                value={downloadOptions}
                onChange={setDownloadOptions}
                errorCorrection={outcome.kind === 'generated' ? { hasLogo: logo !== null } : undefined}
                check={checkPrint}
                framed={style.enableFrame}
              />
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
        <GeneratorDialogs dialog={dialog} onDialogChange={setDialog} refusedType={refusedType} onTypeDialogClosed={backToTypeList} />
      )}
    </div>
  )
}

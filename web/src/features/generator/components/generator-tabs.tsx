import { ArrowDown, Frame, Palette, Sparkles, Target } from 'lucide-react'
import { lazy, Suspense, type ReactNode } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { UseFormReturn } from 'react-hook-form'
import type { QrType } from '@/lib/qr-types'
import type { ChosenLogo } from '../lib/logo'
import type { TypeValues } from '../lib/schemas'
import type { StyleState } from '../lib/style'
import { TypeFields, type UploadedFile } from './type-fields'
import { TypeSelect } from './type-select'

export type Tab = 'purpose' | 'colors' | 'logo' | 'frame'

// The first screen is the Purpose tab. The other tabs load when wanted, a
// tab's code as the pointer or the focus reaches its tab (BENCHMARKS.md,
// page weight).
const tabParts = {
  colors: () => import('./colors-tab'),
  logo: () => import('./logo-tab'),
  frame: () => import('./frame-tab'),
}
const ColorsTab = lazy(() => tabParts.colors().then((m) => ({ default: m.ColorsTab })))
const LogoTab = lazy(() => tabParts.logo().then((m) => ({ default: m.LogoTab })))
const FrameTab = lazy(() => tabParts.frame().then((m) => ({ default: m.FrameTab })))

/** A tab's panel, whose code loads when it is first shown. */
function LazyPanel({ value, children }: { value: Tab; children: ReactNode }) {
  return (
    <TabsContent value={value} className="mt-6">
      <Suspense fallback={<Spinner label="Loading..." className="min-h-40" />}>{children}</Suspense>
    </TabsContent>
  )
}

export interface GeneratorTabsProps {
  id: string
  tab: Tab
  onTabChange: (tab: Tab) => void
  qrType: QrType
  onChooseType: (type: QrType) => void
  signedIn: boolean
  templateTitle?: string
  onShowPreview: () => void
  form: UseFormReturn<TypeValues>
  uploaded: UploadedFile | null
  onUploaded: (file: UploadedFile | null) => void
  onUrlBlur: () => void
  style: StyleState
  onStyleChange: (patch: Partial<StyleState>) => void
  logo: ChosenLogo | null
  onLogoChange: (logo: ChosenLogo | null) => void
}

/** The generator's four tabs: the purpose (type and its fields), colours, logo and frame. */
export function GeneratorTabs({
  id,
  tab,
  onTabChange,
  qrType,
  onChooseType,
  signedIn,
  templateTitle,
  onShowPreview,
  form,
  uploaded,
  onUploaded,
  onUrlBlur,
  style,
  onStyleChange,
  logo,
  onLogoChange,
}: GeneratorTabsProps) {
  return (
    <Tabs value={tab} onValueChange={(v) => onTabChange(v as Tab)} className="p-5 sm:p-6">
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
          <TypeSelect id={`${id}-type`} value={qrType} onChoose={onChooseType} signedIn={signedIn} />
          {templateTitle && <p className="text-xs text-slate-500">Template: {templateTitle}</p>}
        </div>
        {/* Below lg the preview sits under the form: one tap shows it while typing. */}
        <button
          type="button"
          className="inline-flex items-center gap-1.5 justify-self-start text-sm font-medium text-primary hover:underline lg:hidden"
          onClick={onShowPreview}
        >
          <ArrowDown className="size-4" aria-hidden="true" />
          See the preview
        </button>
        <TypeFields
          key={qrType}
          type={qrType}
          form={form}
          uploaded={uploaded}
          onUploaded={onUploaded}
          onUrlBlur={qrType === 'url' || qrType === 'social' || qrType === 'ratings' || qrType === 'apps' ? onUrlBlur : undefined}
        />
      </TabsContent>
      <LazyPanel value="colors">
        <ColorsTab style={style} onChange={onStyleChange} signedIn={signedIn} />
      </LazyPanel>
      <LazyPanel value="logo">
        <LogoTab
          signedIn={signedIn}
          logo={logo}
          onLogoChange={onLogoChange}
          logoSize={style.logoSize}
          onLogoSizeChange={(logoSize) => onStyleChange({ logoSize })}
        />
      </LazyPanel>
      <LazyPanel value="frame">
        <FrameTab style={style} onChange={onStyleChange} />
      </LazyPanel>
    </Tabs>
  )
}

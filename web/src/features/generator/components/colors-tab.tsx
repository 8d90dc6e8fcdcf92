import { Lock } from 'lucide-react'
import { useId, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { DotShape, EyeShape, GradientType, StyleState } from '../lib/style'
import { ColorField, ColorPicker } from './color-picker'
import { OptionGroup, type ChoiceOption } from './option-group'

const icon = (path: ReactNode) => (
  <svg viewBox="0 0 16 16" className="size-4 fill-current" aria-hidden="true">
    {path}
  </svg>
)

const bodyShapes: ChoiceOption<DotShape>[] = [
  { value: 'square', label: 'Square', icon: icon(<rect x="3" y="3" width="10" height="10" />) },
  { value: 'circle', label: 'Circle', icon: icon(<circle cx="8" cy="8" r="5.5" />) },
  { value: 'rounded', label: 'Rounded', icon: icon(<rect x="3" y="3" width="10" height="10" rx="3" />) },
  {
    value: 'dots',
    label: 'Dots',
    icon: icon(
      <>
        <circle cx="5" cy="5" r="2" />
        <circle cx="11" cy="5" r="2" />
        <circle cx="5" cy="11" r="2" />
        <circle cx="11" cy="11" r="2" />
      </>,
    ),
  },
  { value: 'classy', label: 'Classy', icon: icon(<path d="M8 3h5v5a5 5 0 0 1-5 5H3V8a5 5 0 0 1 5-5z" />) },
  {
    value: 'classy-rounded',
    label: 'Classy rounded',
    icon: icon(<path d="M8 3h3.5A1.5 1.5 0 0 1 13 4.5V8a5 5 0 0 1-5 5H4.5A1.5 1.5 0 0 1 3 11.5V8a5 5 0 0 1 5-5z" />),
  },
  { value: 'extra-rounded', label: 'Extra rounded', icon: icon(<path d="M3 6a3 3 0 0 1 6 0v1h1a3 3 0 0 1 0 6H6a3 3 0 0 1-3-3z" />) },
]

/** A 12-unit eye part with corners rounded as the renderer draws them (internal/render eyeRadii: radius × half the side). */
const eyeIcon = (radius: number) => icon(<rect x="2" y="2" width="12" height="12" rx={radius * 6} />)

// The eye frame and centre are labelled as drawn: the renderer's "circle" is a
// very rounded square (a true circle ring does not scan), and a "dot" ring is
// drawn as that same shape, so the frame offers it once.
const borderShapes: ChoiceOption<EyeShape>[] = [
  { value: 'square', label: 'Square', icon: eyeIcon(0) },
  { value: 'curve-square', label: 'Slightly rounded', icon: eyeIcon(0.35) },
  { value: 'extra-rounded', label: 'Rounded', icon: eyeIcon(0.5) },
  { value: 'circle', label: 'Very rounded', icon: eyeIcon(0.6) },
]

const centerShapes: ChoiceOption<EyeShape>[] = [
  { value: 'square', label: 'Square', icon: eyeIcon(0) },
  { value: 'curve-square', label: 'Slightly rounded', icon: eyeIcon(0.35) },
  { value: 'extra-rounded', label: 'Rounded', icon: eyeIcon(0.55) },
  { value: 'circle', label: 'Very rounded', icon: eyeIcon(0.74) },
  { value: 'dot', label: 'Circle', icon: icon(<circle cx="8" cy="8" r="6" />) },
]

const gradientTypes: ChoiceOption<GradientType>[] = [
  { value: 'linear', label: 'Linear' },
  { value: 'radial', label: 'Radial' },
]

interface ColorsTabProps {
  style: StyleState
  onChange: (patch: Partial<StyleState>) => void
  signedIn: boolean
}

export function ColorsTab({ style, onChange, signedIn }: ColorsTabProps) {
  const [askAccount, setAskAccount] = useState(false)

  const chooseMode = (mode: 'single' | 'gradient') => {
    if (mode === 'gradient' && !signedIn) {
      setAskAccount(true)
      return
    }
    setAskAccount(false)
    onChange({ colorMode: mode })
  }

  return (
    <Tabs defaultValue="shape">
      <TabsList className="w-full">
        <TabsTrigger value="shape" className="flex-1">
          Shape Style
        </TabsTrigger>
        <TabsTrigger value="edge" className="flex-1">
          Edge and Center
        </TabsTrigger>
      </TabsList>

      <TabsContent value="shape" className="@container grid gap-6">
        <div className="grid gap-3">
          <OptionGroup
            label="Color mode"
            value={style.colorMode}
            onChange={chooseMode}
            options={[
              { value: 'single', label: 'Single Color' },
              { value: 'gradient', label: 'Second Color', icon: signedIn ? undefined : <Lock className="size-3.5" aria-hidden="true" /> },
            ]}
          />
          {askAccount && (
            <div role="status" className="rounded-lg border border-violet-200 bg-violet-50 p-3 text-sm text-violet-800">
              <strong className="font-semibold">Second color requires an account!</strong>{' '}
              <Link to="/auth?mode=register" className="font-semibold underline underline-offset-2">
                Sign up for free
              </Link>{' '}
              to unlock advanced color options.
            </div>
          )}
        </div>

        {/* Two pickers side by side only where each still has room for its RGB boxes (not in the dashboard's narrow column). */}
        <div className={style.colorMode === 'gradient' ? 'grid gap-6 @xl:grid-cols-2' : 'grid gap-6'}>
          <ColorPicker
            label={style.colorMode === 'gradient' ? 'First color' : 'QR code color'}
            value={style.fgColor}
            onChange={(fgColor) => onChange({ fgColor })}
            initialHue={200}
            initialPosition={{ x: 50, y: 50 }}
          />
          {style.colorMode === 'gradient' && (
            <ColorPicker
              label="Second color"
              value={style.gradientColor}
              onChange={(gradientColor) => onChange({ gradientColor })}
              initialHue={300}
              initialPosition={{ x: 30, y: 70 }}
              placeholder="#BD0212"
            />
          )}
        </div>

        {style.colorMode === 'gradient' && <GradientOptions style={style} onChange={onChange} />}

        <ColorField label="Background color" value={style.bgColor} onChange={(bgColor) => onChange({ bgColor })} />

        <OptionGroup label="Body style" value={style.dotShape} options={bodyShapes} onChange={(dotShape) => onChange({ dotShape })} />
      </TabsContent>

      <TabsContent value="edge" className="grid gap-6">
        <OptionGroup
          label="Border style"
          value={style.cornerShape}
          options={borderShapes}
          onChange={(cornerShape) => onChange({ cornerShape })}
        />
        <OptionGroup
          label="Center style"
          value={style.innerCornerShape}
          options={centerShapes}
          onChange={(innerCornerShape) => onChange({ innerCornerShape })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <ColorField
            label="Border color"
            optional
            emptyHint="Same as main color"
            value={style.outerCornerColor}
            onChange={(outerCornerColor) => onChange({ outerCornerColor })}
          />
          <ColorField
            label="Center color"
            optional
            emptyHint="Same as main color"
            value={style.innerCornerColor}
            onChange={(innerCornerColor) => onChange({ innerCornerColor })}
          />
        </div>
      </TabsContent>
    </Tabs>
  )
}

/** How the second colour runs: linear at an angle or radial, and whether the eyes take it. */
export function GradientOptions({ style, onChange }: Pick<ColorsTabProps, 'style' | 'onChange'>) {
  const ids = { angle: useId(), eyes: useId(), hint: useId() }
  // The box's text while typing: cleared or out of range, it is only
  // applied (clamped to 0-359) when the box is left.
  const [draft, setDraft] = useState(String(style.gradientAngle))
  const typed = (text: string) => {
    setDraft(text)
    const angle = Number(text)
    if (text.trim() !== '' && Number.isInteger(angle) && angle >= 0 && angle <= 359) onChange({ gradientAngle: angle })
  }
  const left = () => {
    const angle = Number.parseInt(draft, 10)
    const kept = Number.isNaN(angle) ? style.gradientAngle : Math.min(359, Math.max(0, angle))
    if (kept !== style.gradientAngle) onChange({ gradientAngle: kept })
    setDraft(String(kept))
  }
  return (
    <div className="grid gap-4">
      <OptionGroup label="Gradient type" value={style.gradientType} options={gradientTypes} onChange={(gradientType) => onChange({ gradientType })} />
      {style.gradientType === 'linear' ? (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.angle}>Gradient angle (degrees)</Label>
          <Input
            id={ids.angle}
            type="number"
            inputMode="numeric"
            min={0}
            max={359}
            step={1}
            className="w-28"
            aria-describedby={ids.hint}
            value={draft}
            onChange={(e) => typed(e.target.value)}
            onBlur={left}
          />
          <p id={ids.hint} className="text-xs text-slate-500">
            0 runs from the bottom up, 90 from left to right; 135 (the default) from the top-left corner to the bottom-right.
          </p>
        </div>
      ) : (
        <p className="text-sm text-slate-600">The first color at the center fades into the second towards the corners.</p>
      )}
      <div className="flex items-center gap-3">
        <Switch id={ids.eyes} checked={style.gradientOnEyes} onCheckedChange={(gradientOnEyes) => onChange({ gradientOnEyes })} />
        <Label htmlFor={ids.eyes}>Gradient on the eyes too (those without their own color)</Label>
      </div>
    </div>
  )
}

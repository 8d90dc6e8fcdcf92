import { Lock } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { DotShape, EyeShape, StyleState } from '../lib/style'
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
]

const eyeShapes: ChoiceOption<EyeShape>[] = [
  { value: 'square', label: 'Square', icon: icon(<rect x="2" y="2" width="12" height="12" />) },
  { value: 'curve-square', label: 'Curve square', icon: icon(<rect x="2" y="2" width="12" height="12" rx="4" />) },
  { value: 'circle', label: 'Circle', icon: icon(<circle cx="8" cy="8" r="6" />) },
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

        <ColorField label="Background color" value={style.bgColor} onChange={(bgColor) => onChange({ bgColor })} />

        <OptionGroup label="Body style" value={style.dotShape} options={bodyShapes} onChange={(dotShape) => onChange({ dotShape })} />
      </TabsContent>

      <TabsContent value="edge" className="grid gap-6">
        <OptionGroup
          label="Border style"
          value={style.cornerShape}
          options={eyeShapes}
          onChange={(cornerShape) => onChange({ cornerShape })}
        />
        <OptionGroup
          label="Center style"
          value={style.innerCornerShape}
          options={eyeShapes}
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

import { useId } from 'react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import type { StyleState } from '../lib/style'
import { ColorField } from './color-picker'
import { OptionGroup } from './option-group'

export function FrameTab({ style, onChange }: { style: StyleState; onChange: (patch: Partial<StyleState>) => void }) {
  const id = useId()
  return (
    <div className="grid gap-5">
      <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4">
        <div>
          <Label htmlFor={`${id}-enable`}>Add a frame</Label>
          <p className="text-sm text-slate-500">A border with a call to action around the code.</p>
        </div>
        <Switch id={`${id}-enable`} checked={style.enableFrame} onCheckedChange={(enableFrame) => onChange({ enableFrame })} />
      </div>
      {style.enableFrame && (
        <>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-text`}>Frame text</Label>
            <Input
              id={`${id}-text`}
              value={style.frameText}
              maxLength={40}
              onChange={(e) => onChange({ frameText: e.target.value })}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <ColorField label="Frame color" value={style.frameColor} onChange={(frameColor) => onChange({ frameColor })} />
            <ColorField
              label="Text color"
              value={style.frameTextColor}
              onChange={(frameTextColor) => onChange({ frameTextColor })}
            />
          </div>
          <OptionGroup
            label="Frame style"
            value={style.frameStyle}
            onChange={(frameStyle) => onChange({ frameStyle })}
            options={[
              { value: 'rounded', label: 'Rounded' },
              { value: 'square', label: 'Square' },
            ]}
          />
        </>
      )}
    </div>
  )
}

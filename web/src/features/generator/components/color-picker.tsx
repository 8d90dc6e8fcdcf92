import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { cn } from '@/lib/utils'
import {
  clampChannel,
  colorAt,
  hexToRgb,
  marksFor,
  parseHex,
  percentWithin,
  rgbToHex,
  type PickerPosition,
  type Rgb,
} from '../lib/color'

interface ColorPickerProps {
  label: string
  /** The committed colour, '#RRGGBB'. */
  value: string
  onChange: (hex: string) => void
  /** Where the hue strip and the area start (spec: 200 and 50/50 for the first picker, 300 and 30/70 for the second). */
  initialHue: number
  initialPosition: PickerPosition
  placeholder?: string
}

/**
 * A hue strip, a saturation/lightness area, RGB channels and a hex field.
 * Dragging updates the marks while the pointer is held and commits the colour
 * on release; arrow keys move the marks and commit at once. Whatever sets the
 * colour (a typed hex or channel, another picker's state, a remount), the marks
 * move to where the area draws it.
 */
export function ColorPicker({ label, value, onChange, initialHue, initialPosition, placeholder }: ColorPickerProps) {
  const id = useId()
  const [marks, setMarks] = useState(() => ({ ...marksFor(value, initialHue, initialPosition), of: value }))
  // A colour set from outside the marks (typed, or given by the parent): move the marks onto it while rendering.
  if (marks.of !== value) setMarks({ ...marksFor(value, marks.hue, marks.position), of: value })
  const { hue, position } = marks
  const setHue = (next: number) => setMarks((m) => ({ ...m, hue: next }))
  const setPosition = (next: PickerPosition) => setMarks((m) => ({ ...m, position: next }))
  const [hexDraft, setHexDraft] = useState<string | null>(null)
  const area = useRef<HTMLDivElement>(null)
  const strip = useRef<HTMLDivElement>(null)
  const dragging = useRef<'area' | 'hue' | null>(null)

  const rgb = hexToRgb(value) ?? { r: 0, g: 0, b: 0 }

  const pointAt = (el: HTMLDivElement, e: PointerEvent) => {
    const box = el.getBoundingClientRect()
    return { x: percentWithin(e.clientX - box.left, box.width), y: percentWithin(e.clientY - box.top, box.height) }
  }

  const move = (e: PointerEvent) => {
    if (dragging.current === 'area' && area.current) setPosition(pointAt(area.current, e))
    if (dragging.current === 'hue' && strip.current) setHue(Math.round((pointAt(strip.current, e).x / 100) * 360))
  }

  const start = (which: 'area' | 'hue', e: PointerEvent<HTMLDivElement>) => {
    dragging.current = which
    e.currentTarget.setPointerCapture?.(e.pointerId)
    move(e)
  }

  const release = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return
    const which = dragging.current
    dragging.current = null
    e.currentTarget.releasePointerCapture?.(e.pointerId)
    // Commit what the pointer last pointed at; state updates from this event are not applied yet.
    const el = which === 'area' ? area.current : strip.current
    if (!el) return
    const point = pointAt(el, e)
    if (which === 'area') onChange(colorAt(hue, point))
    else onChange(colorAt(Math.round((point.x / 100) * 360), position))
  }

  const nudge = (which: 'area' | 'hue', e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 1
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key]
    if (!d) return
    e.preventDefault()
    if (which === 'hue') {
      const next = (hue + d[0] + d[1] + 360) % 360
      setHue(next)
      onChange(colorAt(next, position))
    } else {
      const next = { x: Math.min(100, Math.max(0, position.x + d[0])), y: Math.min(100, Math.max(0, position.y + d[1])) }
      setPosition(next)
      onChange(colorAt(hue, next))
    }
  }

  const setChannel = (channel: keyof Rgb, raw: string) => onChange(rgbToHex({ ...rgb, [channel]: clampChannel(raw) }))

  const commitHex = (raw: string) => {
    const hex = parseHex(raw)
    if (hex) onChange(hex)
    setHexDraft(null)
  }

  return (
    <fieldset className="@container grid gap-3">
      <legend className="mb-2 flex items-center gap-2 text-sm font-medium text-slate-700">
        <span className="size-4 rounded border border-slate-300" style={{ background: value }} aria-hidden="true" />
        {label}
      </legend>
      <div
        ref={area}
        role="slider"
        tabIndex={0}
        aria-label={`${label}: saturation and lightness`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position.x)}
        aria-valuetext={`saturation ${Math.round(position.x)}%, lightness ${Math.round(100 - position.y)}%`}
        className="relative h-36 cursor-crosshair touch-none rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
        style={{
          // White at the top and black at the bottom, as colorAt reads a point: lightness 100 − y.
          background: `linear-gradient(to bottom, #fff, rgba(255,255,255,0) 50%, rgba(0,0,0,0) 50%, #000), linear-gradient(to right, hsl(${hue} 0% 50%), hsl(${hue} 100% 50%))`,
        }}
        onPointerDown={(e) => start('area', e)}
        onPointerMove={move}
        onPointerUp={release}
        onKeyDown={(e) => nudge('area', e)}
      >
        <span
          className="pointer-events-none absolute size-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow ring-1 ring-slate-900/30"
          style={{ left: `${position.x}%`, top: `${position.y}%`, background: colorAt(hue, position) }}
        />
      </div>
      <div
        ref={strip}
        role="slider"
        tabIndex={0}
        aria-label={`${label}: hue`}
        aria-valuemin={0}
        aria-valuemax={360}
        aria-valuenow={hue}
        className="relative h-3 cursor-pointer touch-none rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
        style={{ background: 'linear-gradient(to right, #f00, #ff0, #0f0, #0ff, #00f, #f0f, #f00)' }}
        onPointerDown={(e) => start('hue', e)}
        onPointerMove={move}
        onPointerUp={release}
        onKeyDown={(e) => nudge('hue', e)}
      >
        <span
          className="pointer-events-none absolute top-1/2 size-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow ring-1 ring-slate-900/30"
          style={{ left: `${(hue / 360) * 100}%`, background: `hsl(${hue} 100% 50%)` }}
        />
      </div>
      {/* Channels beside the hex field where the picker is wide enough for "255" in each, else the hex field below them. */}
      <div className="grid grid-cols-3 gap-2 @xs:grid-cols-[1fr_1fr_1fr_1.6fr]">
        {(['r', 'g', 'b'] as const).map((channel) => (
          <div key={channel} className="grid gap-1">
            <Label htmlFor={`${id}-${channel}`} className="text-xs uppercase text-slate-500">
              {channel}
            </Label>
            <Input
              id={`${id}-${channel}`}
              type="number"
              min={0}
              max={255}
              inputMode="numeric"
              // No spin buttons: they take the room of a digit; the arrow keys still step the value.
              className="px-2 tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
              value={rgb[channel]}
              onChange={(e) => setChannel(channel, e.target.value)}
            />
          </div>
        ))}
        <div className="col-span-3 grid gap-1 @xs:col-span-1">
          <Label htmlFor={`${id}-hex`} className="text-xs text-slate-500">
            HEX
          </Label>
          <Input
            id={`${id}-hex`}
            className={cn('px-2 font-mono uppercase')}
            placeholder={placeholder}
            value={hexDraft ?? value}
            onChange={(e) => {
              setHexDraft(e.target.value)
              const hex = parseHex(e.target.value)
              if (hex && e.target.value.replace('#', '').length === 6) onChange(hex)
            }}
            onBlur={(e) => commitHex(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                commitHex(e.currentTarget.value)
              }
            }}
          />
        </div>
      </div>
    </fieldset>
  )
}

/** A compact colour choice: a swatch (the browser's colour dialog) and a hex field; empty allowed when `optional`. */
export function ColorField({
  label,
  value,
  onChange,
  optional,
  emptyHint,
}: {
  label: string
  value: string
  onChange: (hex: string) => void
  optional?: boolean
  emptyHint?: string
}) {
  const id = useId()
  const [draft, setDraft] = useState<string | null>(null)
  const commit = (raw: string) => {
    if (optional && raw.trim() === '') onChange('')
    else {
      const hex = parseHex(raw)
      if (hex) onChange(hex)
    }
    setDraft(null)
  }
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} swatch`}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          value={(value || '#000000').toLowerCase()}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
        />
        <Input
          id={id}
          className="font-mono uppercase"
          value={draft ?? value}
          placeholder={emptyHint}
          onChange={(e) => {
            setDraft(e.target.value)
            const hex = parseHex(e.target.value)
            if (hex && e.target.value.replace('#', '').length === 6) onChange(hex)
          }}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              commit(e.currentTarget.value)
            }
          }}
        />
      </div>
    </div>
  )
}

/** Colour conversions for the pickers: hex, RGB channels and the hue/position model. */

export interface Rgb {
  r: number
  g: number
  b: number
}

/** '#RRGGBB' for user input with or without '#' (3 or 6 hex digits), or null. */
export function parseHex(input: string): string | null {
  const s = input.trim().replace(/^#/, '')
  if (/^[0-9a-f]{6}$/i.test(s)) return `#${s.toUpperCase()}`
  if (/^[0-9a-f]{3}$/i.test(s)) return `#${[...s].map((c) => c + c).join('').toUpperCase()}`
  return null
}

export function hexToRgb(hex: string): Rgb | null {
  const h = parseHex(hex)
  if (!h) return null
  return { r: Number.parseInt(h.slice(1, 3), 16), g: Number.parseInt(h.slice(3, 5), 16), b: Number.parseInt(h.slice(5, 7), 16) }
}

/** A channel input's value: a whole number from 0 to 255 (anything else is clamped; not a number is 0). */
export function clampChannel(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(String(value))
  if (!Number.isFinite(n)) return 0
  return Math.min(255, Math.max(0, Math.round(n)))
}

export function rgbToHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => clampChannel(c).toString(16).padStart(2, '0')).join('').toUpperCase()}`
}

/** HSL (hue 0–360, saturation and lightness 0–100) to RGB. */
export function hslToRgb(h: number, s: number, l: number): Rgb {
  const sat = s / 100
  const light = l / 100
  const k = (n: number) => (n + h / 30) % 12
  const a = sat * Math.min(light, 1 - light)
  const f = (n: number) => light - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return { r: Math.round(f(0) * 255), g: Math.round(f(8) * 255), b: Math.round(f(4) * 255) }
}

/** RGB to HSL (hue 0–360, saturation and lightness 0–100). */
export function rgbToHsl({ r, g, b }: Rgb): { h: number; s: number; l: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255]
  const max = Math.max(rr, gg, bb)
  const min = Math.min(rr, gg, bb)
  const l = (max + min) / 2
  const d = max - min
  if (d === 0) return { h: 0, s: 0, l: l * 100 }
  const s = d / (1 - Math.abs(2 * l - 1))
  let h: number
  if (max === rr) h = ((gg - bb) / d) % 6
  else if (max === gg) h = (bb - rr) / d + 2
  else h = (rr - gg) / d + 4
  h *= 60
  if (h < 0) h += 360
  return { h, s: s * 100, l: l * 100 }
}

/** A point of the saturation/lightness area, in percent from its left and top edges. */
export interface PickerPosition {
  x: number
  y: number
}

/** The colour at a point of the area for a hue: saturation grows to the right, lightness falls downwards. */
export function colorAt(hue: number, { x, y }: PickerPosition): string {
  return rgbToHex(hslToRgb(hue, x, 100 - y))
}

/** Where a colour sits in the picker: its hue and its point in the area. */
export function pickerStateOf(hex: string): { hue: number; position: PickerPosition } | null {
  const rgb = hexToRgb(hex)
  if (!rgb) return null
  const { h, s, l } = rgbToHsl(rgb)
  return { hue: Math.round(h), position: { x: Math.round(s), y: Math.round(100 - l) } }
}

/** Keeps a pointer's offset within [0, size] and returns it in percent. */
export function percentWithin(offset: number, size: number): number {
  if (size <= 0) return 0
  return Math.min(100, Math.max(0, (offset / size) * 100))
}

/**
 * Where the marks go so that they sit on a colour. Marks that already point at
 * it stay where they are (a drag keeps its exact point); otherwise they move to
 * the colour, keeping the hue for greys (every hue draws them) and the
 * saturation for black and white (the whole bottom or top row draws them).
 */
export function marksFor(hex: string, hue: number, position: PickerPosition): { hue: number; position: PickerPosition } {
  const state = pickerStateOf(hex)
  if (!state || colorAt(hue, position) === parseHex(hex)) return { hue, position }
  const { x, y } = state.position
  const blackOrWhite = y === 0 || y === 100
  return { hue: x === 0 || blackOrWhite ? hue : state.hue, position: { x: blackOrWhite ? position.x : x, y } }
}

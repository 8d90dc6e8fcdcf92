/** The design options of the Colors, Logo and Frame tabs (spec 01 §3, "Design options"). */

export type DotShape = 'square' | 'circle' | 'rounded' | 'dots' | 'classy' | 'classy-rounded' | 'extra-rounded'
export type EyeShape = 'square' | 'curve-square' | 'circle' | 'extra-rounded' | 'dot'
export type GradientType = 'linear' | 'radial'
export type LogoSize = 'small' | 'medium' | 'large'
export type FrameStyle = 'rounded' | 'square'
export type ColorMode = 'single' | 'gradient'

export interface StyleState {
  fgColor: string
  bgColor: string
  colorMode: ColorMode
  /** The second picker's colour; sent only in gradient mode. */
  gradientColor: string
  gradientType: GradientType
  /** Linear gradients: degrees clockwise from the top, as in CSS; 135 runs from the top-left corner to the bottom-right. */
  gradientAngle: number
  /** Eyes without their own colour take the gradient too. */
  gradientOnEyes: boolean
  dotShape: DotShape
  cornerShape: EyeShape
  innerCornerShape: EyeShape
  /** Empty means the main colour. */
  outerCornerColor: string
  innerCornerColor: string
  logoSize: LogoSize
  enableFrame: boolean
  frameText: string
  frameColor: string
  frameTextColor: string
  frameStyle: FrameStyle
}

export const defaultStyle: StyleState = {
  fgColor: '#000000',
  bgColor: '#FFFFFF',
  colorMode: 'single',
  gradientColor: '#ff00ff',
  gradientType: 'linear',
  gradientAngle: 135,
  gradientOnEyes: false,
  dotShape: 'square',
  cornerShape: 'square',
  innerCornerShape: 'square',
  outerCornerColor: '',
  innerCornerColor: '',
  logoSize: 'medium',
  enableFrame: false,
  frameText: 'SCAN ME',
  frameColor: '#000000',
  frameTextColor: '#FFFFFF',
  frameStyle: 'rounded',
}

/** Preview pixels per size choice (spec 01 §2). */
export const previewPixels: Record<LogoSize, number> = { small: 192, medium: 320, large: 320 }

/** The style fields as the API takes them (docs/API.md, "Style fields"). */
export function styleFields(style: StyleState): Record<string, string | number | boolean> {
  return {
    fgColor: style.fgColor,
    bgColor: style.bgColor,
    gradientColor: style.colorMode === 'gradient' ? style.gradientColor : '',
    gradientType: style.gradientType,
    gradientAngle: style.gradientAngle,
    gradientOnEyes: style.gradientOnEyes,
    dotShape: style.dotShape,
    cornerShape: style.cornerShape,
    innerCornerShape: style.innerCornerShape,
    outerCornerColor: style.outerCornerColor,
    innerCornerColor: style.innerCornerColor,
    logoSize: style.logoSize,
    enableFrame: style.enableFrame,
    frameText: style.frameText,
    frameColor: style.frameColor,
    frameTextColor: style.frameTextColor,
    frameStyle: style.frameStyle,
  }
}

/** A saved code's style fields (docs/API.md "Records") as the tabs edit them; missing ones take the defaults. */
export function styleFromRecord(record: Record<string, unknown>): StyleState {
  const text = (key: keyof StyleState) => (typeof record[key] === 'string' ? (record[key] as string) : undefined)
  const gradient = text('gradientColor')
  const style = { ...defaultStyle }
  for (const key of Object.keys(defaultStyle) as (keyof StyleState)[]) {
    const value = typeof defaultStyle[key] === 'string' ? text(key) : record[key]
    if (value !== undefined && typeof value === typeof defaultStyle[key]) Object.assign(style, { [key]: value })
  }
  return { ...style, colorMode: gradient ? 'gradient' : 'single', gradientColor: gradient || defaultStyle.gradientColor }
}

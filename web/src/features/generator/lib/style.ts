/** The design options of the Colors, Logo and Frame tabs (spec 01 §3, "Design options"). */

export type DotShape = 'square' | 'circle' | 'rounded'
export type EyeShape = 'square' | 'curve-square' | 'circle'
export type LogoSize = 'small' | 'medium' | 'large'
export type FrameStyle = 'rounded' | 'square'
export type ColorMode = 'single' | 'gradient'

export interface StyleState {
  fgColor: string
  bgColor: string
  colorMode: ColorMode
  /** The second picker's colour; sent only in gradient mode. */
  gradientColor: string
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
export function styleFields(style: StyleState): Record<string, string | boolean> {
  return {
    fgColor: style.fgColor,
    bgColor: style.bgColor,
    gradientColor: style.colorMode === 'gradient' ? style.gradientColor : '',
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

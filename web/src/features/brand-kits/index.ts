// What other features may use of brand kits (eslint.config.js keeps the rest private).
export { BrandKitPicker, type BrandKitPickerProps } from './components/brand-kit-picker'
export type { BrandKit } from './api/brand-kits'

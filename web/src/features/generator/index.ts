export { Generator, type GeneratorProps } from './components/generator'
export type { SavedCode } from './api/generator-api'
export { RestyleDialog, type RestyleDialogProps, type RestyledCode } from './components/restyle-dialog'

export { Generator, type GeneratorProps } from './components/generator'
export type { SavedCode } from './api/generator-api'

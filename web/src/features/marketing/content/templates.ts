import templateData from './templates.json'

/** The Templates page's categories and its 13 templates (spec 02 §2, §3). */

export const templateCategories = [
  { value: 'all', label: 'All Templates' },
  { value: 'business', label: 'Business' },
  { value: 'personal', label: 'Personal' },
  { value: 'hospitality', label: 'Hospitality' },
  { value: 'events', label: 'Events' },
] as const

export type TemplateCategory = Exclude<(typeof templateCategories)[number]['value'], 'all'>

export interface Template {
  id: string
  title: string
  description: string
  category: TemplateCategory
  popular: boolean
  /** The generator type the template fills in; it may be one the generator cannot make yet. */
  qrType: string
  /** Sample values for the type's fields, named as the generator names them. */
  previewData: Record<string, string | number>
}

// The data sits in JSON so that the Go test drawing each template's sample
// code (internal/server, TestSampleCodes) reads the very same fields. JSON
// widens its strings (a category is any string to TypeScript), hence the cast.
export const templates = templateData as unknown as Template[]

/** The templates of a category ('all' for every one). */
export function templatesIn(category: string): Template[] {
  return category === 'all' ? templates : templates.filter((t) => t.category === category)
}

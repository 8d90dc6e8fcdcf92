import type { PresetLogo } from './preset-logos'

/** The logo on the code: an uploaded blob on the server, and how to show it here. */
export interface ChosenLogo {
  id: number
  fileName: string
  /** Where the thumbnail comes from (a bundled preset or the uploaded file's address). */
  src: string
  preset?: PresetLogo['id']
}

/** A logo uploaded earlier, by its id, as the Logo tab shows it. */
export function uploadedLogo(id: number, fileName: string): ChosenLogo {
  return { id, fileName, src: `/logo/${id}` }
}

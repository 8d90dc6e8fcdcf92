/**
 * The preset logos: our own simple marks (a glyph on a coloured rounded
 * square), bundled in public/logos as PNG so the server can embed them.
 */
export const presetLogos = [
  { id: 'instagram', label: 'Instagram' },
  { id: 'facebook', label: 'Facebook' },
  { id: 'youtube', label: 'YouTube' },
  { id: 'tiktok', label: 'TikTok' },
  { id: 'email', label: 'Email' },
  { id: 'linkedin', label: 'LinkedIn' },
  { id: 'pinterest', label: 'Pinterest' },
  { id: 'x', label: 'X (Twitter)' },
  { id: 'app-store', label: 'App Store' },
] as const

export type PresetLogo = (typeof presetLogos)[number]

export const presetLogoUrl = (preset: PresetLogo) => `/logos/${preset.id}.png`

/** Fetches a bundled preset and turns it into a File, to be uploaded like a user's own logo. */
export async function presetLogoFile(preset: PresetLogo): Promise<File> {
  const res = await fetch(presetLogoUrl(preset))
  if (!res.ok) throw new Error(`Preset logo ${preset.id}: ${res.status}`)
  const blob = await res.blob()
  return new File([blob], `${preset.id}.png`, { type: blob.type || 'image/png' })
}

/** The logo upload's client check: the file's type must start with image/. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/')
}

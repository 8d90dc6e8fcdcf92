const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : undefined

/** A country's name in the user's language from its ISO 3166-1 alpha-2 code; the code itself if the browser does not know it. */
export function countryName(code: string) {
  try {
    return regionNames?.of(code) ?? code
  } catch {
    return code
  }
}

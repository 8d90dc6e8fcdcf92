/** Hands the browser bytes as a file download, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked a moment later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/**
 * A file name from a code's name ("Spring menu – table 4" → "Spring-menu-table-4.png"):
 * letters and digits of any script kept, everything else (path separators, characters
 * Windows refuses, emoji) run together into one hyphen, at most 80 characters; the
 * fallback when nothing is left.
 */
export function fileNameFor(name: string, fallback: string, extension: string) {
  const base = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
  return `${base || fallback}.${extension}`
}

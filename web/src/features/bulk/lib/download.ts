import { zipStore } from './zip'

/** Hands the browser bytes as a file download. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** One ZIP of text files, built in the page. */
export function zipTextFiles(files: { name: string; text: string }[]): Blob {
  const encoder = new TextEncoder()
  return new Blob([zipStore(files.map((f) => ({ name: f.name, data: encoder.encode(f.text) })))], { type: 'application/zip' })
}

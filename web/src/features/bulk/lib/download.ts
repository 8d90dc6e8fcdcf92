import { zipStore } from './zip'

/** One ZIP of text files, built in the page. */
export function zipTextFiles(files: { name: string; text: string }[]): Blob {
  const encoder = new TextEncoder()
  return new Blob([zipStore(files.map((f) => ({ name: f.name, data: encoder.encode(f.text) })))], { type: 'application/zip' })
}

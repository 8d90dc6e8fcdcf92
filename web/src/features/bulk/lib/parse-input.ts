/**
 * The bulk page's input rules (spec 02 §5 "Bulk"): one item per line, each
 * trimmed, empty lines ignored; a CSV upload keeps only the first
 * comma-separated column of each non-blank line.
 */

/** The items of the text area, in order. */
export function parseItems(text: string): string[] {
  const items: string[] = []
  for (const line of text.split(/\r\n|\r|\n/)) {
    const item = line.trim()
    if (item) items.push(item)
  }
  return items
}

/** How many items the text area holds, without building the list (it runs on every keystroke). */
export function countItems(text: string): number {
  let count = 0
  let blank = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) {
      if (!blank) count++
      blank = true
    } else if (blank && !/\s/.test(text[i])) {
      blank = false
    }
  }
  return blank ? count : count + 1
}

// What a CSV's first cell says when its first row is a header, not an item.
const HEADER_NAMES = new Set(['url', 'urls', 'link', 'links', 'data', 'text', 'texts', 'content', 'item', 'items', 'value', 'destination'])

/**
 * The text an uploaded file puts in the text area: a CSV's first column
 * without its header row (a first cell such as url, data or text), any other
 * file as it is.
 */
export function fileToInput(fileName: string, content: string): string {
  if (!fileName.toLowerCase().endsWith('.csv')) return content
  const cells = content
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(',')[0].trim())
  const first = cells[0]?.replace(/^\uFEFF/, '').replace(/^"(.*)"$/, '$1').trim().toLowerCase()
  if (first !== undefined && HEADER_NAMES.has(first)) cells.shift()
  return cells.join('\n')
}

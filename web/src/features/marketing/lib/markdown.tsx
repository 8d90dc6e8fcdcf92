import type { ReactNode } from 'react'

/**
 * A small markdown renderer for the blog's own posts: '## ' and '### '
 * headings, '- ' bullets, '1. ' numbered lists, pipe tables with a header
 * separator row, **bold**, [links](/path) and paragraphs. It builds React
 * elements, never HTML strings, so nothing in a post can inject markup.
 */

type Block =
  | { kind: 'heading'; level: 2 | 3; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'paragraph'; text: string }

const bullet = /^[-*] +/
const numbered = /^\d+\. +/

/** Splits markdown into blocks; exported for tests. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i].trim()
    if (line === '') {
      i++
      continue
    }
    const heading = /^(#{2,3}) +(.*)$/.exec(line)
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1].length as 2 | 3, text: heading[2] })
      i++
      continue
    }
    if (bullet.test(line) || numbered.test(line)) {
      const ordered = numbered.test(line)
      const marker = ordered ? numbered : bullet
      const items: string[] = []
      while (i < lines.length && marker.test(lines[i].trim())) {
        items.push(lines[i].trim().replace(marker, ''))
        i++
      }
      blocks.push({ kind: 'list', ordered, items })
      continue
    }
    if (line.startsWith('|') && i + 1 < lines.length && /^\|?[\s:|-]+\|?$/.test(lines[i + 1].trim()) && lines[i + 1].includes('-')) {
      const head = cells(line)
      const rows: string[][] = []
      i += 2
      while (i < lines.length && lines[i].trim().startsWith('|')) {
        rows.push(cells(lines[i].trim()))
        i++
      }
      blocks.push({ kind: 'table', head, rows })
      continue
    }
    // A paragraph runs from this line (whatever it starts with: a lone
    // pipe line is text) to a blank line or the start of another block.
    const text = [line]
    i++
    while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines, i)) {
      text.push(lines[i].trim())
      i++
    }
    blocks.push({ kind: 'paragraph', text: text.join(' ') })
  }
  return blocks
}

function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i].trim()
  return /^#{2,3} /.test(line) || bullet.test(line) || numbered.test(line) || line.startsWith('|')
}

function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim())
}

/** Inline markup: **bold** and [text](href). */
export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = []
  const pattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g
  let last = 0
  let key = 0
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    if (m[1] !== undefined) {
      out.push(<strong key={key++}>{m[1]}</strong>)
    } else {
      // Only our own pages and web addresses: a javascript: link would run code.
      const href = /^(\/|https?:\/\/)/.test(m[3]) ? m[3] : undefined
      out.push(
        <a key={key++} href={href} className="font-medium text-primary hover:underline">
          {m[2]}
        </a>,
      )
    }
    last = pattern.lastIndex
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

export function Markdown({ source }: { source: string }) {
  return (
    <div className="grid gap-5 text-lg leading-relaxed text-slate-700">
      {parseBlocks(source).map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return block.level === 2 ? (
              <h2 key={i} className="mt-4 text-2xl font-bold text-slate-900">
                {renderInline(block.text)}
              </h2>
            ) : (
              <h3 key={i} className="mt-2 text-xl font-semibold text-slate-900">
                {renderInline(block.text)}
              </h3>
            )
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul'
            return (
              <List key={i} className={block.ordered ? 'grid list-decimal gap-2 pl-6' : 'grid list-disc gap-2 pl-6'}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </List>
            )
          }
          case 'table':
            return (
              <div key={i} className="overflow-x-auto rounded-xl border border-slate-200">
                <table className="w-full text-left text-base">
                  <thead className="bg-slate-50 text-slate-900">
                    <tr>
                      {block.head.map((cell, j) => (
                        <th key={j} scope="col" className="px-4 py-3 font-semibold">
                          {renderInline(cell)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {block.rows.map((row, j) => (
                      <tr key={j}>
                        {row.map((cell, k) => (
                          <td key={k} className="px-4 py-3">
                            {renderInline(cell)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          default:
            return <p key={i}>{renderInline(block.text)}</p>
        }
      })}
    </div>
  )
}

import { render, screen, within } from '@testing-library/react'
import { Markdown, parseBlocks } from './markdown'

describe('Markdown', () => {
  it('renders headings, bullets, numbered lists, bold and paragraphs', () => {
    render(
      <Markdown
        source={`Intro with **bold words** and more.
Second line of the same paragraph.

## A heading

### A smaller one

- first **point**
- second point

1. step one
2. step two`}
      />,
    )
    expect(screen.getByRole('heading', { level: 2, name: 'A heading' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: 'A smaller one' })).toBeInTheDocument()
    const paragraph = screen.getByText(/Intro with/)
    expect(paragraph.tagName).toBe('P')
    expect(paragraph).toHaveTextContent('Intro with bold words and more. Second line of the same paragraph.')
    expect(within(paragraph).getByText('bold words').tagName).toBe('STRONG')
    const [bullets, steps] = screen.getAllByRole('list')
    expect(bullets.tagName).toBe('UL')
    expect(within(bullets).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['first point', 'second point'])
    expect(within(bullets).getByText('point').tagName).toBe('STRONG')
    expect(steps.tagName).toBe('OL')
    expect(within(steps).getAllByRole('listitem')).toHaveLength(2)
  })

  it('renders a table with its header row and body rows', () => {
    render(
      <Markdown
        source={`| Level | Restores |
|---|---|
| L | about **7%** |
| H | about 30% |`}
      />,
    )
    const table = screen.getByRole('table')
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Level', 'Restores'])
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(within(rows[1]).getAllByRole('cell').map((td) => td.textContent)).toEqual(['L', 'about 7%'])
    expect(within(rows[1]).getByText('7%').tagName).toBe('STRONG')
  })

  it('keeps markup as text and refuses script links', () => {
    render(<Markdown source={'<img src=x onerror=alert(1)> [safe](/faq) [bad](javascript:alert(1))'} />)
    expect(document.querySelector('img')).toBeNull()
    expect(screen.getByText(/<img src=x/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'safe' })).toHaveAttribute('href', '/faq')
    expect(screen.getByText('bad')).not.toHaveAttribute('href')
  })

  it('treats a pipe line without a separator row as a paragraph', () => {
    expect(parseBlocks('| not | a table |')).toEqual([{ kind: 'paragraph', text: '| not | a table |' }])
  })
})

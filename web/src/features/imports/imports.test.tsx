import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MemoryRouter } from 'react-router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, stubFetch } from '@/test/render-app'
import { ImportCard } from './components/import-card'
import type { ImportJob } from './api/imports'

const items = [
  { row: 1, shortCode: 'menu', destination: 'https://example.com/menu', title: '', tags: [], clicks: 3, createdAt: null, status: 'pending' },
  { row: 2, shortCode: 'login', destination: 'https://example.com/x', title: '', tags: [], clicks: 0, createdAt: null, status: 'conflict', reason: 'Reserved' },
]

describe('ImportCard', { timeout: 30_000 }, () => {
  it('runs a dry run, imports, and shows Ready to switch only once every link answers the same', async () => {
    let polls = 0
    let checked = false
    const job = (): ImportJob => ({
      id: 9,
      source: 'csv',
      status: polls++ > 0 ? 'done' : 'running',
      domain: 'go.shop.example',
      oldBaseUrl: 'https://old.example',
      total: 2,
      progress: 100,
      created: 1,
      skipped: 0,
      conflicts: 1,
      failed: 0,
      error: '',
      items: [{ ...items[0], status: 'created' as const }, items[1] as ImportJob['items'][0]],
      check: checked
        ? { checked: 1, same: 1, different: [], running: false, ready: true }
        : { checked: 0, same: 0, different: [], running: false, ready: false },
    })
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/imports': (init) => {
        const form = init?.body as FormData
        return form.get('dryRun') === 'true'
          ? json({ dryRun: true, total: 2, create: 1, conflicts: 1, skip: 0, items })
          : json(job(), 202)
      },
      'GET /api/imports/9': () => json(job()),
      'POST /api/imports/9/verify': () => {
        checked = true
        return json(job(), 202)
      },
    })
    render(
      <AppProvider queryClient={createQueryClient()}>
        <MemoryRouter>
          <ImportCard domains={[{ id: 4, domain: 'go.shop.example' }]} baseHost="squarely.example" />
        </MemoryRouter>
      </AppProvider>,
    )
    await userEvent.upload(screen.getByLabelText('CSV file'), new File(['shortCode,destination\n'], 'links.csv', { type: 'text/csv' }))
    await userEvent.type(screen.getByLabelText('Old short host'), 'https://old.example')
    await userEvent.selectOptions(screen.getByLabelText('Domain'), '4')
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }))
    expect(await screen.findByTestId('dry-run-summary')).toHaveTextContent('2 links: 1 to create, 1 conflicts, 0 already there.')
    expect(screen.getByText('Reserved')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 links' }))
    expect(await screen.findByText('done', {}, { timeout: 5000 })).toBeInTheDocument()
    expect(screen.queryByTestId('ready-to-switch')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Check every short URL' }))
    expect(await screen.findByTestId('ready-to-switch', {}, { timeout: 5000 })).toHaveTextContent('point old.example at Squarely')
    const posts = mock.mock.calls.filter(([u, init]) => u === '/api/imports' && init?.method === 'POST')
    const sent = posts[1][1]?.body as FormData
    expect(sent.get('source')).toBe('csv')
    expect(sent.get('domainId')).toBe('4')
    expect(sent.get('oldBaseUrl')).toBe('https://old.example')
    expect(sent.get('dryRun')).toBe('false')
  })

  it('reads a service through its API: JSON with the source, its URL and key', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/imports': () => json({ dryRun: true, total: 1, create: 1, conflicts: 0, skip: 0, items: [items[0]] }),
    })
    render(
      <AppProvider queryClient={createQueryClient()}>
        <MemoryRouter>
          <ImportCard domains={[]} baseHost="squarely.example" />
        </MemoryRouter>
      </AppProvider>,
    )
    await userEvent.selectOptions(screen.getByLabelText('Source'), 'kutt')
    expect(screen.getByLabelText('Service URL')).toHaveAttribute('placeholder', 'https://kutt.example.com')
    await userEvent.type(screen.getByLabelText('Service URL'), 'https://kutt.example.com')
    await userEvent.type(screen.getByLabelText('API key'), 'k-123')
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }))
    expect(await screen.findByTestId('dry-run-summary')).toHaveTextContent('1 links: 1 to create')
    const post = mock.mock.calls.find(([u, init]) => u === '/api/imports' && init?.method === 'POST')
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ source: 'kutt', baseUrl: 'https://kutt.example.com', apiKey: 'k-123', dryRun: true })
  })
})

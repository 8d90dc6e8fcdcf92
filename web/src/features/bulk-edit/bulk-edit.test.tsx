import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MemoryRouter } from 'react-router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, stubFetch } from '@/test/render-app'
import { BulkEditDialog } from './components/bulk-edit-dialog'

describe('BulkEditDialog', { timeout: 30_000 }, () => {
  it('sends the change as a dry run, shows before and after, applies, follows the job and undoes it', async () => {
    const bodies: unknown[] = []
    let polls = 0
    const job = () => ({
      id: 5,
      status: polls++ > 0 ? 'done' : 'running',
      total: 2,
      processed: polls > 1 ? 2 : 1,
      failed: 0,
      createdAt: '2026-11-29T10:00:00Z',
      finishedAt: null,
      undoUntil: '2026-11-30T10:00:00Z',
    })
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/codes/bulk-edit': (init) => {
        const body = JSON.parse(String(init?.body)) as { dryRun?: boolean }
        bodies.push(body)
        return body.dryRun
          ? json({
              selected: 2,
              changing: 2,
              rows: [{ id: 'd_1', name: 'Lunch', shortCode: 'abc', before: { destination: 'https://old.example/l' }, after: { destination: 'https://new.example/l' } }],
              failures: [{ id: 's_3', reason: 'Only dynamic codes have a destination' }],
            })
          : json({ id: 5, total: 2 }, 202)
      },
      'GET /api/codes/bulk-edit/5': () => json(job()),
      'POST /api/codes/bulk-edit/5/undo': () => json({ id: 5, status: 'undone', restored: 1, skipped: [{ id: 'd_2', reason: 'The code was changed again since' }] }),
    })
    render(
      <AppProvider queryClient={createQueryClient()}>
        <MemoryRouter>
          <BulkEditDialog selection={{ filter: { folder: '7' } }} label="every code matching this filter" open onOpenChange={() => {}} />
        </MemoryRouter>
      </AppProvider>,
    )
    await userEvent.type(await screen.findByLabelText('Replace'), 'https://old.example')
    await userEvent.type(screen.getByLabelText('With'), 'https://new.example')
    await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }))
    expect(await screen.findByTestId('bulk-edit-summary')).toHaveTextContent('2 codes selected: 2 will change, 1 will fail.')
    expect(screen.getByRole('row', { name: /Lunch/ })).toHaveTextContent('https://new.example/l')
    expect(screen.getByText(/Only dynamic codes have a destination/)).toBeInTheDocument()
    expect(bodies[0]).toEqual({ filter: { folder: '7' }, changes: { destination: { replace: { from: 'https://old.example', to: 'https://new.example' } } }, dryRun: true })

    await userEvent.click(screen.getByRole('button', { name: 'Apply to 2 codes' }))
    expect(bodies[1]).toEqual({ filter: { folder: '7' }, changes: { destination: { replace: { from: 'https://old.example', to: 'https://new.example' } } } })
    expect(await screen.findByText('Done: 2 changed, 0 failed.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(await screen.findByTestId('bulk-edit-undone')).toHaveTextContent('Restored 1 code. Left as they were: d_2 (The code was changed again since).')
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { dynamicCode, staticCode } from './test-fixtures'

// Moving codes to another workspace (docs/API.md "Moving codes"): from a
// card and from the selection, to the workspaces where the user is an
// admin or owner.

type Handlers = Parameters<typeof stubFetch>[0]

function stub(handlers: Handlers = {}, role: 'owner' | 'editor' = 'owner') {
  return stubFetch({
    'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role } }),
    'GET /api/codes': () => json({ items: [{ ...dynamicCode, kind: 'dynamic' }, { ...staticCode, kind: 'static' }], nextCursor: null }),
    'GET /api/tags': () => json([]),
    'GET /api/folders': () => json([]),
    'GET /api/trial-status': () => json({ dynamicQRUsed: 1, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    'GET /api/workspaces': () =>
      json([
        { id: 9, name: 'Agency', role: 'owner', personal: false },
        { id: 10, name: 'Client', role: 'admin', personal: false },
        { id: 11, name: 'Partner', role: 'editor', personal: false },
      ]),
    ...handlers,
  })
}

async function card(name: string) {
  const heading = await screen.findByRole('heading', { name })
  const el = heading.closest('[data-testid="qr-card"]')
  if (!(el instanceof HTMLElement)) throw new Error(`no card for ${name}`)
  return el
}

const posted = (mock: ReturnType<typeof stubFetch>) => {
  const call = mock.mock.calls.find(([u, init]) => u === '/api/codes/move' && init?.method === 'POST')
  return call ? JSON.parse(String(call[1]?.body)) : undefined
}

describe('Move to workspace', () => {
  it('moves one code from its card, by keyboard, to a workspace the user administers', async () => {
    const mock = stub({
      'POST /api/codes/move': () => json({ id: 4, status: 'done', toWorkspaceId: 10, total: 1, processed: 1, failed: 0, failures: [] }),
    })
    renderApp('/dashboard')
    const button = within(await card('Menu card')).getByRole('button', { name: 'Move to workspace' })
    button.focus()
    await userEvent.keyboard('{Enter}')
    const dialog = await screen.findByRole('dialog', { name: 'Move Menu card to another workspace' })
    // Only the other workspaces where the user is an admin or owner.
    const client = await within(dialog).findByRole('radio', { name: /Client/ })
    expect(within(dialog).queryByRole('radio', { name: /Partner/ })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('radio', { name: /Agency/ })).not.toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Move' })).toBeDisabled()
    client.focus()
    await userEvent.keyboard(' ')
    expect(client).toBeChecked()
    await userEvent.tab() // Cancel
    await userEvent.tab() // Move
    await userEvent.keyboard('{Enter}')
    expect(await screen.findByText('Moved 1 code to Client')).toBeInTheDocument()
    expect(posted(mock)).toEqual({ ids: ['d_3'], toWorkspaceId: 10 })
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('moves the selection as a job, follows it and says which codes stayed', async () => {
    let reads = 0
    const mock = stub({
      'POST /api/codes/move': () => json({ id: 5, total: 2 }, 202),
      'GET /api/codes/move/5': () =>
        json(
          ++reads < 2
            ? { id: 5, status: 'running', toWorkspaceId: 10, total: 2, processed: 1, failed: 0, failures: [] }
            : {
                id: 5,
                status: 'done',
                toWorkspaceId: 10,
                total: 2,
                processed: 2,
                failed: 1,
                failures: [{ id: 'd_3', reason: 'The code prints go.example.com, which the target workspace has not verified' }],
              },
        ),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('checkbox', { name: 'Select Menu card' }))
    await userEvent.click(within(await card('Shop front')).getByRole('checkbox', { name: 'Select Shop front' }))
    await userEvent.click(within(screen.getByRole('toolbar', { name: 'Selected codes' })).getByRole('button', { name: 'Move to workspace' }))
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 selected codes to another workspace' })
    await userEvent.click(await within(dialog).findByRole('radio', { name: /Client/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }))
    expect(await screen.findByText('Moved 1 of 2 codes to Client')).toBeInTheDocument()
    expect(screen.getByText(/has not verified/)).toBeInTheDocument()
    expect(posted(mock)).toEqual({ ids: ['d_3', 's_7'], toWorkspaceId: 10 })
    expect(reads).toBe(2)
  })

  it('is offered from the bulk edit dialog, on the same selection', async () => {
    const mock = stub({
      'GET /api/codes/bulk-edit': () => json({ items: [] }),
      'GET /api/brand-kits': () => json([]),
      'GET /api/domains': () => json([]),
      'POST /api/codes/move': () => json({ id: 6, status: 'done', toWorkspaceId: 10, total: 1, processed: 1, failed: 0, failures: [] }),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Shop front')).getByRole('checkbox', { name: 'Select Shop front' }))
    await userEvent.click(within(screen.getByRole('toolbar', { name: 'Selected codes' })).getByRole('button', { name: 'Bulk edit' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Move to workspace instead' }))
    const dialog = await screen.findByRole('dialog', { name: 'Move 1 selected code to another workspace' })
    await userEvent.click(await within(dialog).findByRole('radio', { name: /Client/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }))
    expect(await screen.findByText('Moved 1 code to Client')).toBeInTheDocument()
    expect(posted(mock)).toEqual({ ids: ['s_7'], toWorkspaceId: 10 })
  })

  it('is not offered to an editor', async () => {
    stub({}, 'editor')
    renderApp('/dashboard')
    expect(within(await card('Menu card')).queryByRole('button', { name: 'Move to workspace' })).not.toBeInTheDocument()
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { render } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { ApiKeysCard } from './components/api-keys-card'

const key = {
  id: 5,
  name: 'Shop',
  masked: 'sq_abcdef…wxyz',
  createdAt: '2026-11-20T08:00:00Z',
  createdBy: { userId: 3, email: 'ann@example.com', name: 'Ann Lee' },
  scopes: null,
  folderId: null,
  expiresAt: null,
}

function renderCard() {
  return render(
    <AppProvider queryClient={createQueryClient()}>
      <MemoryRouter>
        <ApiKeysCard />
      </MemoryRouter>
    </AppProvider>,
  )
}

describe('ApiKeysCard', { timeout: 30_000 }, () => {
  it('creates a key and shows it whole once, with copy', async () => {
    const whole = 'sq_abcdef' + 'y'.repeat(31)
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/api-keys': () => json([]),
      'GET /api/folders': () => json([]),
      'POST /api/api-keys': () => json({ ...key, id: 6, name: 'CRM', key: whole }, 201),
    })
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderCard()
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Create key' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Key name'), 'CRM')
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent(whole)
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(writeText).toHaveBeenCalledWith(whole)
    expect(await screen.findByText('API key copied to clipboard')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({ name: 'CRM' })
  })

  it('lists keys masked and revokes one', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/api-keys': () => json([key]),
      'GET /api/folders': () => json([]),
      'DELETE /api/api-keys/5': () => new Response(null, { status: 204 }),
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderCard()
    const item = (await screen.findByText('Shop')).closest('li') as HTMLElement
    expect(within(item).getByText(/sq_abcdef…wxyz/)).toBeInTheDocument()
    expect(within(item).getByText('Created by Ann Lee')).toBeInTheDocument()
    await userEvent.click(await within(item).findByRole('button', { name: 'Revoke Shop' }))
    expect(await screen.findByText('API key revoked')).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/api-keys/5' && init?.method === 'DELETE')).toBe(true)
  })

  it('makes a key limited to scopes, a folder and a date, and lists its limits (issue 33)', async () => {
    let answered = false
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/api-keys': () =>
        json(answered ? [{ ...key, scopes: ['codes:read', 'analytics:read'], folderId: 4, expiresAt: '2099-01-31T22:59:59Z' }] : []),
      'GET /api/folders': () => json([{ id: 4, name: 'Menus' }]),
      'POST /api/api-keys': (init) => {
        const body = JSON.parse(init?.body as string)
        if (body.scopes.includes('codes:write')) {
          return json({ message: 'No', errors: { scopes: 'Scope codes:write is not allowed here' } }, 400)
        }
        answered = true
        return json({ ...key, key: 'sq_x' }, 201)
      },
    })
    renderCard()
    await userEvent.type(await screen.findByLabelText('Key name'), 'Menu board')
    await userEvent.click(screen.getByLabelText('Only these scopes'))
    await userEvent.click(screen.getByRole('checkbox', { name: /codes:write/ }))
    await userEvent.selectOptions(screen.getByLabelText('Limit to a folder (optional)'), '4')
    // A folder key is offered only its codes' scopes.
    expect(screen.queryByRole('checkbox', { name: /webhooks:write/ })).not.toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Expires after (optional)'), '2099-01-31')
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText('Scope codes:write is not allowed here')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('checkbox', { name: /codes:write/ }))
    await userEvent.click(screen.getByRole('checkbox', { name: /analytics:read/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent('sq_x')
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')
    const body = JSON.parse(posts[1]?.[1]?.body as string)
    expect(body).toMatchObject({ name: 'Menu board', scopes: ['codes:read', 'analytics:read'], folderId: 4 })
    expect(new Date(body.expiresAt).getFullYear()).toBe(2099)
    expect(await screen.findByText(/Scopes: codes:read, analytics:read · folder Menus only · expires/)).toBeInTheDocument()
  })

  it("shows an editor the workspace's keys without creating or revoking (issue 22)", async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'editor' } }),
      'GET /api/api-keys': () => json([{ ...key, createdBy: { ...key.createdBy, name: '' } }]),
      'GET /api/folders': () => json([]),
    })
    renderCard()
    const item = (await screen.findByText('Shop')).closest('li') as HTMLElement
    expect(await screen.findByText(/Only its owners and admins create and revoke keys/)).toBeInTheDocument()
    expect(screen.getByText(/belongs to the workspace Agency/)).toBeInTheDocument()
    expect(within(item).queryByRole('button', { name: 'Revoke Shop' })).not.toBeInTheDocument()
    expect(within(item).getByText('Created by ann@example.com')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create key' })).not.toBeInTheDocument()
  })
})

describe('API docs page', { timeout: 30_000 }, () => {
  it('lists the endpoints of the OpenAPI document', async () => {
    stubFetch({
      'GET /api/user': () => json(null, 401),
      'GET /api/v1/openapi.json': () =>
        json({
          info: { title: 'Squarely API', version: '1', description: '' },
          paths: { '/api/v1/codes': { get: { operationId: 'listCodes', summary: 'List your codes, newest first', responses: { '200': {} } } } },
        }),
    })
    renderApp('/docs/api')
    expect(await screen.findByText('List your codes, newest first', {}, { timeout: 10_000 })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Squarely API' })).toBeInTheDocument()
  })
})

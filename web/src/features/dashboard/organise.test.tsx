import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { DynamicCode, StaticCode } from './api/types'
import { dynamicCode as menuCard, staticCode as shopFront } from './test-fixtures'

// Issue 22: the dashboard lists GET /api/codes with the server's filters and
// cursor, shows tags and folders on the cards, and hides what a viewer may not do.

const staticCode: StaticCode = { ...shopFront, tags: [2], folderId: 5 }
const dynamicCode: DynamicCode = { ...menuCard, tags: [], folderId: null }

const tags = [
  { id: 1, name: 'Spring', color: '#16a34a' },
  { id: 2, name: 'Print', color: '#2563eb' },
]
const folders = [{ id: 5, name: 'Café' }]

type Handlers = Parameters<typeof stubFetch>[0]

function stub(handlers: Handlers = {}, role: 'owner' | 'editor' | 'viewer' = 'owner') {
  return stubFetch({
    'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role } }),
    'GET /api/codes': () => json({ items: [{ ...dynamicCode, qrMode: undefined, kind: 'dynamic' }, { ...staticCode, kind: 'static' }], nextCursor: null }),
    'GET /api/tags': () => json(tags),
    'GET /api/folders': () => json(folders),
    'GET /api/trial-status': () => json({ dynamicQRUsed: 1, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    ...handlers,
  })
}

const listUrls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/codes?')).map((u) => new URL(u, 'http://x').searchParams)

async function card(name: string) {
  const heading = await screen.findByRole('heading', { name })
  const el = heading.closest('[data-testid="qr-card"]')
  if (!(el instanceof HTMLElement)) throw new Error(`no card for ${name}`)
  return el
}

const body = (mock: ReturnType<typeof stubFetch>, method: string, url: string) => {
  const call = mock.mock.calls.find(([u, init]) => u === url && init?.method === method)
  return call ? JSON.parse(String(call[1]?.body)) : undefined
}

describe('the server-side list', () => {
  it('sends the search, filters and sort to GET /api/codes and reads "kind" as the mode', async () => {
    const mock = stub()
    renderApp('/dashboard')
    // The record said kind "dynamic" only: the card is a dynamic one.
    expect(within(await card('Menu card')).getByText('Dynamic')).toBeInTheDocument()
    expect(Object.fromEntries(listUrls(mock)[0])).toEqual({ status: 'active', sort: 'created', order: 'desc', limit: '24' })

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search codes' }), 'menu')
    await waitFor(() => expect(listUrls(mock).some((p) => p.get('q') === 'menu')).toBe(true))
    // One request for the settled text, none for each key.
    expect(listUrls(mock).filter((p) => p.has('q'))).toHaveLength(1)

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Tag' }), 'Print')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Folder' }), 'Café')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'dynamic')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'scans')
    await waitFor(() =>
      expect(Object.fromEntries(listUrls(mock).at(-1) ?? [])).toEqual({ q: 'menu', kind: 'dynamic', status: 'active', tag: '2', folder: '5', sort: 'scans', order: 'desc', limit: '24' }),
    )
  })

  it('loads the next page by the cursor and says "No codes match" for a search without results', async () => {
    const second: StaticCode = { ...staticCode, id: 8, name: 'Back door', tags: [], folderId: null }
    const mock = stub({
      'GET /api/codes': (_, url) => {
        if (url.searchParams.get('q')) return json({ items: [], nextCursor: null, total: 0 })
        return url.searchParams.get('cursor') === 'page2'
          ? json({ items: [second], nextCursor: null })
          : json({ items: [dynamicCode, staticCode], nextCursor: 'page2', total: 3 })
      },
    })
    renderApp('/dashboard')
    await card('Menu card')
    // The count is the server's total, not the codes loaded so far.
    expect(screen.getByText('3 codes')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await card('Back door')).toBeInTheDocument()
    expect(listUrls(mock).at(-1)?.get('cursor')).toBe('page2')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(screen.getByText('3 codes')).toBeInTheDocument()

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search codes' }), 'nothing')
    expect(await screen.findByText('No codes match')).toBeInTheDocument()
    expect(screen.getByText('0 of 3 match')).toBeInTheDocument()
    // The filters stay, to clear the search again.
    expect(screen.getByRole('searchbox', { name: 'Search codes' })).toHaveValue('nothing')
  })
})

describe('tags and folders', () => {
  it('shows the tags and folder on a card and changes them from the card', async () => {
    const mock = stub({
      'PUT /api/dynamic-qrcodes/3/tags': () => json({ ...dynamicCode, tags: [1, 2] }),
      'PUT /api/dynamic-qrcodes/3/folder': () => json({ ...dynamicCode, folderId: 5 }),
    })
    renderApp('/dashboard')
    const shop = await card('Shop front')
    const labels = within(shop).getByTestId('code-labels')
    await waitFor(() => expect(labels).toHaveTextContent('Folder: Café'))
    expect(labels).toHaveTextContent('Tag: Print')
    // Each button's name holds the words it shows (WCAG 2.5.3).
    expect(within(shop).getByRole('button', { name: 'Edit tags and folder of Shop front' })).toHaveTextContent(/^Edit$/)
    const addTags = within(await card('Menu card')).getByRole('button', { name: 'Add tags to Menu card' })
    expect(addTags).toHaveTextContent(/^Add tags$/)

    await userEvent.click(addTags)
    const dialog = await screen.findByRole('dialog', { name: 'Tags and folder' })
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Spring' }))
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Print' }))
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Folder' }), 'Café')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(body(mock, 'PUT', '/api/dynamic-qrcodes/3/tags')).toEqual({ tagIds: [1, 2] })
    expect(body(mock, 'PUT', '/api/dynamic-qrcodes/3/folder')).toEqual({ folderId: 5 })
  })

  it('says the tags were saved when only the folder is refused, and keeps the dialog open', async () => {
    stub({
      'PUT /api/dynamic-qrcodes/3/tags': () => json({ ...dynamicCode, tags: [1] }),
      'PUT /api/dynamic-qrcodes/3/folder': () => json({ message: 'You are a viewer in Acme Marketing' }, 403),
    })
    renderApp('/dashboard')
    await userEvent.click(within(await card('Menu card')).getByRole('button', { name: 'Add tags to Menu card' }))
    const dialog = await screen.findByRole('dialog', { name: 'Tags and folder' })
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Print' }))
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Folder' }), 'Café')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Tags saved, the folder was not')).toBeInTheDocument()
    expect(screen.getByText('You are a viewer in Acme Marketing')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Tags and folder' })).toBeInTheDocument()
  })

  it('creates a tag with a colour and shows a duplicate name refused by the server on the field', async () => {
    let first = true
    const mock = stub({
      'POST /api/tags': () => {
        if (first) {
          first = false
          return json({ message: 'A tag with this name already exists' }, 409)
        }
        return json({ id: 3, name: 'Summer', color: '#db2777' }, 201)
      },
    })
    renderApp('/dashboard')
    await card('Menu card')
    await userEvent.click(screen.getByRole('button', { name: 'Manage tags and folders' }))
    const manage = await screen.findByRole('dialog', { name: 'Tags and folders' })
    expect(within(within(manage).getByRole('list', { name: 'Tags' })).getAllByRole('listitem')).toHaveLength(2)
    await userEvent.click(within(manage).getByRole('button', { name: 'New tag' }))
    const dialog = await screen.findByRole('dialog', { name: 'New tag' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save tag' }))
    expect(await within(dialog).findByText('Tag name is required')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Tag name'), 'Spring')
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Pink' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save tag' }))
    expect(await within(dialog).findByText('A tag with this name already exists')).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByLabelText('Tag name'))
    await userEvent.type(within(dialog).getByLabelText('Tag name'), 'Summer')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save tag' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New tag' })).not.toBeInTheDocument())
    const posts = mock.mock.calls.filter(([u, init]) => u === '/api/tags' && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)))
    expect(posts).toEqual([
      { name: 'Spring', color: '#db2777' },
      { name: 'Summer', color: '#db2777' },
    ])
  })
})

describe('roles', () => {
  it('shows a viewer the codes without any button that changes them', async () => {
    stub({}, 'viewer')
    renderApp('/dashboard')
    for (const name of ['Menu card', 'Shop front']) {
      const el = await card(name)
      const buttons = within(el)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent)
      expect(buttons).toEqual([`Preview ${name}`, 'Download', 'View'])
      expect(within(el).queryByRole('checkbox')).not.toBeInTheDocument()
    }
    // Only the side menu's link stays: the create view explains the role.
    expect(screen.getAllByRole('link', { name: 'Create QR Code' })).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Manage tags and folders' })).not.toBeInTheDocument()
  })

  it('tells a viewer on the create view that only editors create codes', async () => {
    stub({}, 'viewer')
    renderApp('/dashboard?create=true')
    expect(await screen.findByText(/You are a viewer in Agency/)).toBeInTheDocument()
  })

  it('gives an editor the code buttons', async () => {
    stub({}, 'editor')
    renderApp('/dashboard')
    const el = await card('Menu card')
    for (const name of ['Edit', 'Pause', 'Delete', 'Duplicate']) expect(within(el).getByRole('button', { name })).toBeInTheDocument()
    expect(within(el).getByRole('button', { name: 'Rename Menu card' })).toBeInTheDocument()
  })
})

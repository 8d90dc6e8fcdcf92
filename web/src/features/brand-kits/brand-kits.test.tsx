import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { BrandKit } from './api/brand-kits'
import { BrandKitPicker } from './components/brand-kit-picker'

const kit = (id: number, name: string, extra: Partial<BrandKit> = {}): BrandKit => ({
  id,
  name,
  fgColor: '#8B0000',
  bgColor: '#FFFFE0',
  dotShape: 'rounded',
  logoId: null,
  logoFileName: '',
  isDefault: false,
  createdAt: '2026-11-20T08:00:00Z',
  updatedAt: '2026-11-20T08:00:00Z',
  ...extra,
})

const bistro = kit(3, 'Bistro')
const harbour = kit(4, 'Harbour', { fgColor: '#0B3D91', isDefault: true, logoId: 77, logoFileName: 'anchor.png' })

function renderPicker(props: Parameters<typeof BrandKitPicker>[0]) {
  return render(
    <AppProvider queryClient={createQueryClient()}>
      <MemoryRouter>
        <BrandKitPicker {...props} />
      </MemoryRouter>
    </AppProvider>,
  )
}

describe('BrandKitPicker', { timeout: 30_000 }, () => {
  it('applies the chosen kit, and saves the current design as a new kit', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/brand-kits': () => json([bistro, harbour]),
      'POST /api/brand-kits': () => json(kit(5, 'Spring'), 201),
    })
    const onApply = vi.fn()
    renderPicker({ onApply, design: { fgColor: '#112233', dotShape: 'circle', logoId: null } })
    const select = await screen.findByLabelText('Brand kit')
    await within(select).findByRole('option', { name: 'Harbour (default)' })
    // Without applyDefault the default kit is only listed, not applied.
    expect(onApply).not.toHaveBeenCalled()
    await userEvent.selectOptions(select, 'Bistro')
    expect(onApply).toHaveBeenCalledWith(bistro)
    expect(await screen.findByText('Brand kit “Bistro” applied')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Save as brand kit' }))
    await userEvent.type(await screen.findByLabelText('Kit name'), 'Spring')
    await userEvent.click(screen.getByLabelText("Make it the workspace's default kit"))
    await userEvent.click(screen.getByRole('button', { name: 'Save kit' }))
    expect(await screen.findByText('Brand kit saved')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({ fgColor: '#112233', dotShape: 'circle', logoId: null, name: 'Spring', isDefault: true })
  })

  it('saves a kit without submitting the form it sits in (the generator)', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/brand-kits': () => json([bistro]),
      'POST /api/brand-kits': () => json(kit(5, 'Spring'), 201),
    })
    const outer = vi.fn((e: { preventDefault: () => void }) => e.preventDefault())
    render(
      <AppProvider queryClient={createQueryClient()}>
        <MemoryRouter>
          <form onSubmit={outer}>
            <BrandKitPicker onApply={vi.fn()} design={{ fgColor: '#112233' }} />
          </form>
        </MemoryRouter>
      </AppProvider>,
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Save as brand kit' }))
    await userEvent.type(await screen.findByLabelText('Kit name'), 'Spring{Enter}')
    expect(await screen.findByText('Brand kit saved')).toBeInTheDocument()
    expect(outer).not.toHaveBeenCalled()
  })

  it("applies the workspace's default kit once when asked to", async () => {
    stubFetch({ 'GET /api/user': () => json(alice), 'GET /api/brand-kits': () => json([bistro, harbour]) })
    const onApply = vi.fn()
    renderPicker({ onApply, applyDefault: true })
    await waitFor(() => expect(onApply).toHaveBeenCalledWith(harbour))
    expect(onApply).toHaveBeenCalledTimes(1)
    expect(screen.getByLabelText('Brand kit')).toHaveValue('4')
    // No design to save: no save button.
    expect(screen.queryByRole('button', { name: 'Save as brand kit' })).not.toBeInTheDocument()
  })

  it('offers a viewer the kits but not saving one', async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'viewer' } }),
      'GET /api/brand-kits': () => json([bistro]),
    })
    renderPicker({ onApply: vi.fn(), design: {} })
    await within(await screen.findByLabelText('Brand kit')).findByRole('option', { name: 'Bistro' })
    expect(screen.queryByRole('button', { name: 'Save as brand kit' })).not.toBeInTheDocument()
  })
})

describe('Brand kits page', { timeout: 30_000 }, () => {
  it('lists the kits and lets an editor make one the default, rename and delete it', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'editor' } }),
      'GET /api/workspaces': () => json([]),
      'GET /api/brand-kits': () => json([bistro, harbour]),
      'PUT /api/brand-kits/3': (init) => json({ ...bistro, ...JSON.parse(init?.body as string) }),
      'DELETE /api/brand-kits/3': () => new Response(null, { status: 204 }),
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderApp('/workspace/brand-kits')
    const list = await screen.findByRole('list', { name: 'Brand kits' })
    expect(within(list).getByText('Default')).toBeInTheDocument()
    expect(within(list).getByText(/logo anchor\.png/)).toBeInTheDocument()
    await userEvent.click(within(list).getByRole('button', { name: 'Make default: Bistro' }))
    expect(await screen.findByText('Bistro is the default brand kit')).toBeInTheDocument()
    await userEvent.click(within(list).getByRole('button', { name: 'Rename Bistro' }))
    const name = await screen.findByLabelText('Kit name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Bistro red')
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }))
    expect(await screen.findByText('Brand kit renamed')).toBeInTheDocument()
    await userEvent.click(within(list).getByRole('button', { name: 'Delete Bistro' }))
    expect(await screen.findByText('Brand kit deleted')).toBeInTheDocument()
    const puts = fetchMock.mock.calls.filter(([url, init]) => url === '/api/brand-kits/3' && init?.method === 'PUT')
    expect(puts.map(([, init]) => JSON.parse(init?.body as string))).toEqual([{ isDefault: true }, { name: 'Bistro red' }])
  })

  it('shows a viewer the kits without changing them', async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'viewer' } }),
      'GET /api/workspaces': () => json([]),
      'GET /api/brand-kits': () => json([bistro]),
    })
    renderApp('/workspace/brand-kits')
    const list = await screen.findByRole('list', { name: 'Brand kits' })
    expect(within(list).getByText('Bistro')).toBeInTheDocument()
    expect(screen.getByText(/editors and admins change them/)).toBeInTheDocument()
    expect(within(list).queryByRole('button')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Brand kits' })).toBeInTheDocument()
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { UtmPreset } from '../api/utm-presets'
import { dynamicCode } from '../test-fixtures'

const spring: UtmPreset = { id: 5, name: 'Spring flyer', source: 'flyer', medium: 'print', campaign: 'spring', term: '', content: 'front' }

/** The dashboard with one dynamic code, and the presets the server keeps (changed by POST and DELETE). */
function stubPresets(presets: UtmPreset[], refuse?: Response) {
  let list = [...presets]
  const mock = stubFetch({
    'GET /api/user': () => json(alice),
    'GET /api/codes': () => json({ items: [dynamicCode], nextCursor: null }),
    'GET /api/trial-status': () => json({ isActive: false, hasExpired: false, daysRemaining: 0, subscriptionStatus: null, dynamicQRUsed: 1, dynamicQRLimit: 12, canCreateDynamicQR: true }),
    'GET /api/utm-presets': () => json(list),
    'POST /api/utm-presets': (init) => {
      if (refuse) return refuse
      const preset = { id: 9, ...(JSON.parse(String(init?.body)) as Omit<UtmPreset, 'id'>) }
      list = [...list, preset]
      return json(preset, 201)
    },
    'DELETE /api/utm-presets/5': () => {
      list = list.filter((p) => p.id !== 5)
      return new Response(null, { status: 204 })
    },
  })
  return mock
}

async function openBuilder() {
  renderApp('/dashboard')
  const heading = await screen.findByRole('heading', { name: 'Menu card' })
  await userEvent.click(within(heading.closest('[data-testid="qr-card"]') as HTMLElement).getByRole('button', { name: 'Edit' }))
  const dialog = await screen.findByRole('dialog', { name: 'Edit Dynamic QR Code' })
  return within(dialog).getByRole('group', { name: 'UTM builder' })
}

const calls = (mock: ReturnType<typeof stubFetch>, method: string, url: string) => mock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method)

describe('UTM builder presets', () => {
  it('fills the fields from a saved preset, and the URL gets its parameters', async () => {
    stubPresets([spring])
    const builder = await openBuilder()
    await userEvent.type(within(builder).getByLabelText('utm_term'), 'left over')
    await userEvent.selectOptions(await within(builder).findByLabelText('Saved preset'), 'Spring flyer')
    expect(within(builder).getByLabelText('utm_source')).toHaveValue('flyer')
    expect(within(builder).getByLabelText('utm_medium')).toHaveValue('print')
    expect(within(builder).getByLabelText('utm_term')).toHaveValue('')
    await userEvent.click(within(builder).getByRole('button', { name: 'Add UTM to URL' }))
    expect(screen.getByLabelText('Destination URL')).toHaveValue('https://menu.example.com/?utm_source=flyer&utm_medium=print&utm_campaign=spring&utm_content=front')
  })

  it('saves the fields as a named preset, which the list then offers', async () => {
    const mock = stubPresets([])
    const builder = await openBuilder()
    expect(within(builder).getByLabelText('Saved preset')).toBeDisabled()
    await userEvent.type(within(builder).getByLabelText('utm_source'), ' newsletter ')
    await userEvent.type(within(builder).getByLabelText('utm_campaign'), 'autumn')
    await userEvent.type(within(builder).getByLabelText('Preset name'), 'Autumn mail{Enter}')
    await waitFor(() => expect(calls(mock, 'POST', '/api/utm-presets')).toHaveLength(1))
    expect(JSON.parse(String(calls(mock, 'POST', '/api/utm-presets')[0][1]?.body))).toEqual({
      name: 'Autumn mail',
      source: 'newsletter',
      medium: '',
      campaign: 'autumn',
      term: '',
      content: '',
    })
    // Enter saved the preset, not the destination.
    expect(calls(mock, 'PUT', '/api/dynamic-qrcodes/3')).toHaveLength(0)
    await waitFor(() => expect(within(builder).getByLabelText('Saved preset')).toHaveDisplayValue('Autumn mail'))
    expect(within(builder).getByLabelText('Preset name')).toHaveValue('')
  })

  it("shows the server's refusal of a preset", async () => {
    stubPresets([spring], json({ message: 'A UTM preset with this name already exists', errors: { name: 'A UTM preset with this name already exists' } }, 409))
    const builder = await openBuilder()
    await userEvent.type(within(builder).getByLabelText('utm_source'), 'x')
    await userEvent.type(within(builder).getByLabelText('Preset name'), 'spring flyer')
    await userEvent.click(within(builder).getByRole('button', { name: 'Save as preset' }))
    expect(await within(builder).findByRole('alert')).toHaveTextContent('A UTM preset with this name already exists')
  })

  it('deletes the chosen preset', async () => {
    const mock = stubPresets([spring])
    const builder = await openBuilder()
    expect(within(builder).getByRole('button', { name: 'Delete preset' })).toBeDisabled()
    await userEvent.selectOptions(await within(builder).findByLabelText('Saved preset'), 'Spring flyer')
    await userEvent.click(within(builder).getByRole('button', { name: 'Delete preset' }))
    await waitFor(() => expect(calls(mock, 'DELETE', '/api/utm-presets/5')).toHaveLength(1))
    await waitFor(() => expect(within(builder).queryByRole('option', { name: 'Spring flyer' })).not.toBeInTheDocument())
    expect(within(builder).getByLabelText('Saved preset')).toBeDisabled()
  })
})

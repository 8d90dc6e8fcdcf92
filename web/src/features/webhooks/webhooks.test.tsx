import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

const hook = {
  id: 3,
  url: 'https://crm.example.com/in',
  events: ['code.created', 'webhook.test'],
  description: 'CRM',
  enabled: true,
  disabledReason: '',
  consecutiveFailures: 0,
  failingSince: null,
  createdAt: '2026-11-20T08:00:00Z',
  updatedAt: '2026-11-20T08:00:00Z',
}

const delivery = {
  id: 11,
  eventId: 'msg_abc',
  type: 'webhook.test',
  status: 'failed',
  attempts: 7,
  lastStatusCode: 503,
  lastError: 'HTTP 503: busy',
  nextAttemptAt: '2026-11-20T09:00:00Z',
  createdAt: '2026-11-20T08:00:00Z',
}

describe('Webhooks page', { timeout: 30_000 }, () => {
  it('adds an endpoint, shows its secret once, and shows the server’s reason for a refused URL', async () => {
    let posts = 0
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json([]),
      'POST /api/webhooks': () =>
        ++posts === 1
          ? json({ message: 'URL must use https', errors: { url: 'URL must use https' } }, 400)
          : json({ ...hook, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' }, 201),
    })
    renderApp('/webhooks')
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'http://crm.example.com/in')
    await userEvent.click(screen.getByRole('checkbox', { name: /webhook\.test/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByText('URL must use https')).toBeInTheDocument()
    expect(screen.getByLabelText('Endpoint URL')).toHaveFocus()

    await userEvent.clear(screen.getByLabelText('Endpoint URL'))
    await userEvent.type(screen.getByLabelText('Endpoint URL'), hook.url)
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0')
    const last = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').at(-1)
    expect(JSON.parse(last?.[1]?.body as string)).toEqual({
      url: hook.url,
      events: ['code.created', 'code.updated', 'code.deleted', 'webhook.test'],
      description: '',
    })
  })

  it('deletes an endpoint and keeps focus in the list: on the endpoint left, then on "No endpoints yet."', async () => {
    const other = { ...hook, id: 4, url: 'https://erp.example.com/in' }
    let left = [hook, other]
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json(left),
      'GET /api/webhooks/3/deliveries': () => json({ items: [], nextCursor: null }),
      'GET /api/webhooks/4/deliveries': () => json({ items: [], nextCursor: null }),
      'DELETE /api/webhooks/3': () => {
        left = [other]
        return new Response(null, { status: 204 })
      },
      'DELETE /api/webhooks/4': () => {
        left = []
        return new Response(null, { status: 204 })
      },
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderApp('/webhooks')
    await userEvent.click(await screen.findByRole('button', { name: `Delete ${hook.url}` }))
    expect(await screen.findByText('Endpoint deleted')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('region', { name: `Endpoint ${hook.url}` })).not.toBeInTheDocument())
    expect(screen.getByRole('region', { name: `Endpoint ${other.url}` })).toHaveFocus()
    await userEvent.click(screen.getByRole('button', { name: `Delete ${other.url}` }))
    expect(await screen.findByText('No endpoints yet.')).toHaveFocus()
  })

  it('lists deliveries, retries one, sends a test and disables the endpoint', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json([hook]),
      'GET /api/webhooks/3/deliveries': () => json({ items: [delivery], nextCursor: null }),
      'POST /api/webhooks/3/deliveries/11/retry': () => json({ status: 'pending' }, 202),
      'POST /api/webhooks/3/test': () => json({ status: 'pending' }, 202),
      'PATCH /api/webhooks/3': () => json({ ...hook, enabled: false }),
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderApp('/webhooks')
    const card = await screen.findByRole('region', { name: `Endpoint ${hook.url}` })
    const row = await within(card).findByTestId('delivery')
    expect(row).toHaveTextContent('failed')
    expect(row).toHaveTextContent('7 attempts · last answer HTTP 503 · HTTP 503: busy')
    await userEvent.click(within(row).getByRole('button', { name: 'Retry now' }))
    expect(await screen.findByText('Retrying now')).toBeInTheDocument()
    await userEvent.click(within(card).getByRole('button', { name: 'Send test' }))
    expect(await screen.findByText('Test event queued')).toBeInTheDocument()
    await userEvent.click(within(card).getByRole('button', { name: 'Disable' }))
    expect(await screen.findByText('Endpoint disabled')).toBeInTheDocument()
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')
    expect(JSON.parse(patch?.[1]?.body as string)).toEqual({ enabled: false })
  })

  it('retries a pending delivery now, says when it is being sent, and shows its payload and last answer', async () => {
    const pending = { ...delivery, status: 'pending', attempts: 2, nextAttemptAt: '2026-11-20T10:00:00Z' }
    let retries = 0
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json([hook]),
      'GET /api/webhooks/3/deliveries': () => json({ items: [pending], nextCursor: null }),
      'GET /api/webhooks/3/deliveries/11': () =>
        json({ ...pending, payload: '{"type":"webhook.test","timestamp":"2026-11-20T08:00:00Z","data":{"endpointId":3}}', lastResponse: '{"error":"busy"}' }),
      'POST /api/webhooks/3/deliveries/11/retry': () =>
        ++retries === 1 ? json({ status: 'pending' }, 202) : json({ message: 'This delivery is being sent now' }, 409),
    })
    renderApp('/webhooks')
    const row = await screen.findByTestId('delivery')
    expect(row).toHaveTextContent('pending')
    await userEvent.click(within(row).getByRole('button', { name: 'Retry now' }))
    expect(await screen.findByText('Retrying now')).toBeInTheDocument()
    await userEvent.click(within(row).getByRole('button', { name: 'Retry now' }))
    expect(await screen.findByText('This delivery is being sent now')).toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([u, init]) => u === '/api/webhooks/3/deliveries/11/retry' && init?.method === 'POST')).toHaveLength(2)

    await userEvent.click(within(row).getByRole('button', { name: 'Details of msg_abc' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delivery msg_abc' })
    expect(await within(dialog).findByTestId('delivery-payload')).toHaveTextContent('"endpointId": 3')
    expect(within(dialog).getByText('HTTP 503')).toBeInTheDocument()
    expect(within(dialog).getByTestId('delivery-response')).toHaveTextContent('{"error":"busy"}')
  })

  it('edits an endpoint: its URL and events, with the server refusing a bad URL on the field', async () => {
    let patches = 0
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json([hook]),
      'GET /api/webhooks/3/deliveries': () => json({ items: [], nextCursor: null }),
      'PATCH /api/webhooks/3': () =>
        ++patches === 1
          ? json({ message: 'URL must use https', errors: { url: 'URL must use https' } }, 400)
          : json({ ...hook, url: 'https://crm.example.com/v2', events: ['code.created', 'code.deleted', 'webhook.test'] }),
    })
    renderApp('/webhooks')
    const card = await screen.findByRole('region', { name: `Endpoint ${hook.url}` })
    await userEvent.click(within(card).getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit endpoint' })
    const url = within(dialog).getByLabelText('Endpoint URL')
    expect(url).toHaveValue(hook.url)
    expect(within(dialog).getByRole('checkbox', { name: /webhook\.test/ })).toBeChecked()
    await userEvent.clear(url)
    await userEvent.type(url, 'http://crm.example.com/v2')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /code\.deleted/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save endpoint' }))
    expect(await within(dialog).findByText('URL must use https')).toBeInTheDocument()
    await userEvent.clear(url)
    await userEvent.type(url, 'https://crm.example.com/v2')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save endpoint' }))
    expect(await screen.findByText('Endpoint saved')).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Edit endpoint' })).not.toBeInTheDocument()
    const last = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH').at(-1)
    expect(JSON.parse(last?.[1]?.body as string)).toEqual({ url: 'https://crm.example.com/v2', events: ['code.created', 'webhook.test', 'code.deleted'], description: 'CRM' })
  })

  it('ties the refusal of no events to the events, and focuses them', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/webhooks': () => json([]),
      'POST /api/webhooks': () => json({ message: 'Choose at least one event', errors: { events: 'Choose at least one event' } }, 400),
    })
    renderApp('/webhooks')
    await userEvent.type(await screen.findByLabelText('Endpoint URL'), hook.url)
    for (const name of [/code\.created/, /code\.updated/, /code\.deleted/]) await userEvent.click(screen.getByRole('checkbox', { name }))
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    const events = await screen.findByRole('group', { name: 'Events' })
    await vi.waitFor(() => expect(events).toHaveAttribute('aria-invalid', 'true'))
    expect(events).toHaveAccessibleDescription('Choose at least one event')
    expect(events).toHaveFocus()
    expect(screen.getByLabelText('Endpoint URL')).not.toHaveAttribute('aria-invalid')
  })

  it('tells an editor that only owners and admins manage webhooks', async () => {
    stubFetch({ 'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'editor' } }) })
    renderApp('/webhooks')
    expect(await screen.findByText('Only owners and admins of Agency can manage its webhooks.')).toBeInTheDocument()
  })
})

import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MemoryRouter } from 'react-router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, stubFetch } from '@/test/render-app'
import { DomainsCard } from './components/domains-card'
import type { Domain } from './api/domains'

const pending: Domain = {
  id: 3,
  domain: 'qr.shop.example',
  status: 'pending',
  method: null,
  verifiedAt: null,
  lastCheckedAt: null,
  lastError: '',
  lostAt: null,
  codes: 0,
  txtName: '_squarely-verify.qr.shop.example',
  txtValue: 'squarely-verify=tok123',
  httpUrl: 'http://qr.shop.example/.well-known/squarely-verify/tok123',
  httpBody: 'tok123',
  createdAt: '2026-11-20T08:00:00Z',
  linksOnly: false,
  rootUrl: '',
  cnameTarget: 'squarely.example',
  addresses: [],
  pointing: false,
  pointCheckedAt: null,
  pointError: '',
}

function renderCard() {
  return render(
    <AppProvider queryClient={createQueryClient()}>
      <MemoryRouter>
        <DomainsCard workspaceName="Personal" />
      </MemoryRouter>
    </AppProvider>,
  )
}

describe('DomainsCard', { timeout: 30_000 }, () => {
  it('adds a domain, showing the server’s refusal on the field', async () => {
    let added = false
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () => json(added ? [pending] : []),
      'POST /api/domains': (init) => {
        const body = JSON.parse(init?.body as string) as { domain: string }
        if (body.domain.includes('/')) {
          const message = 'Enter the domain alone, such as qr.example.com: no scheme, port, path or wildcard'
          return json({ message, errors: { domain: message } }, 400)
        }
        added = true
        return json(pending, 201)
      },
    })
    renderCard()
    expect(await screen.findByText('No domains yet.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Domain'), 'https://qr.shop.example/')
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }))
    expect(await screen.findByText(/Enter the domain alone/)).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Domain'))
    await userEvent.type(screen.getByLabelText('Domain'), 'qr.shop.example')
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }))
    const item = await screen.findByTestId('domain-qr.shop.example')
    expect(within(item).getByText('Pending')).toBeInTheDocument()
    expect(within(item).getByText(/_squarely-verify\.qr\.shop\.example → squarely-verify=tok123/)).toBeInTheDocument()
    expect(within(item).getByText(/squarely-verify\/tok123 → tok123/)).toBeInTheDocument()
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')
    expect(JSON.parse(posts.at(-1)?.[1]?.body as string)).toEqual({ domain: 'qr.shop.example' })
  })

  it('verifies: a failure shows what was found, a success the badge', async () => {
    let verified = false
    let tries = 0
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () =>
        json([
          verified
            ? { ...pending, status: 'verified', method: 'dns', verifiedAt: '2026-11-21T08:00:00Z', pointing: true }
            : { ...pending, lastError: tries ? 'Not verified. DNS: none.' : '' },
        ]),
      'POST /api/domains/3/verify': () => {
        tries++
        if (tries === 1) return json({ message: 'Not verified. DNS: none.', code: 'verification_failed' }, 422)
        verified = true
        return json({ ...pending, status: 'verified', method: 'dns', pointing: true })
      },
    })
    renderCard()
    const item = await screen.findByTestId('domain-qr.shop.example')
    await userEvent.click(within(item).getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Not verified yet')).toBeInTheDocument()
    expect(await within(item).findByText('Not verified. DNS: none.')).toBeInTheDocument()
    await userEvent.click(within(item).getByRole('button', { name: 'Verify' }))
    expect(await within(item).findByText('Verified')).toBeInTheDocument()
    expect(within(item).queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument()
  })

  it('shows where to point a verified domain that does not point here, and checks again', async () => {
    let checks = 0
    const notPointing: Domain = {
      ...pending,
      status: 'verified',
      method: 'dns',
      verifiedAt: '2026-11-21T08:00:00Z',
      addresses: ['203.0.113.7', '2001:db8::7'],
    }
    const problem = 'qr.shop.example does not point here yet: its addresses are 198.51.100.9, not a CNAME record to squarely.example, and nothing answered over it.'
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () => json([checks < 2 ? { ...notPointing, pointError: checks ? problem : '' } : { ...notPointing, pointing: true }]),
      'POST /api/domains/3/pointing': () => {
        checks++
        if (checks === 1) return json({ message: problem, code: 'not_pointing' }, 422)
        return json({ ...notPointing, pointing: true })
      },
    })
    renderCard()
    const item = await screen.findByTestId('domain-qr.shop.example')
    expect(within(item).getByText('Verified, not pointing here yet')).toBeInTheDocument()
    expect(within(item).getByTestId('cname-target')).toHaveTextContent('qr.shop.example → squarely.example')
    expect(within(item).getByText('qr.shop.example → 203.0.113.7, 2001:db8::7')).toBeInTheDocument()
    await userEvent.click(within(item).getByRole('button', { name: 'Check again' }))
    expect(await screen.findByText('Not pointing here yet')).toBeInTheDocument()
    expect(await within(item).findByText(problem)).toBeInTheDocument()
    await userEvent.click(within(item).getByRole('button', { name: 'Check again' }))
    expect(await within(item).findByText('Verified')).toBeInTheDocument()
    expect(within(item).queryByRole('button', { name: 'Check again' })).not.toBeInTheDocument()
    expect(within(item).queryByTestId('cname-target')).not.toBeInTheDocument()
  })

  it('shows a lost domain with what to publish again, and no Verify button', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () =>
        json([
          {
            ...pending,
            status: 'lost',
            method: 'dns',
            verifiedAt: '2026-11-21T08:00:00Z',
            lostAt: '2026-11-25T08:00:00Z',
            codes: 2,
            lastError: 'Not verified. DNS: there is no TXT record at _squarely-verify.qr.shop.example.',
          },
        ]),
    })
    renderCard()
    const item = await screen.findByTestId('domain-qr.shop.example')
    expect(within(item).getByText('Proof missing')).toBeInTheDocument()
    expect(within(item).getByText(/Its codes keep working for now/)).toBeInTheDocument()
    expect(within(item).getByText(/_squarely-verify\.qr\.shop\.example → squarely-verify=tok123/)).toBeInTheDocument()
    expect(within(item).getByText(/there is no TXT record/)).toBeInTheDocument()
    expect(within(item).queryByText('Verified')).not.toBeInTheDocument()
    expect(within(item).queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument()
  })

  it('sets a verified domain to links only, with where its home page goes, showing the server’s refusal', async () => {
    let current: Domain = { ...pending, status: 'verified', method: 'dns', verifiedAt: '2026-11-21T08:00:00Z' }
    const sent: unknown[] = []
    stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/domains': () => json([current]),
      'PATCH /api/domains/3': (init) => {
        const body = JSON.parse(init?.body as string) as { linksOnly: boolean; rootUrl: string }
        sent.push(body)
        if (body.rootUrl.startsWith('javascript:')) return json({ message: 'Please enter a valid URL', errors: { rootUrl: 'Please enter a valid URL' } }, 400)
        current = { ...current, ...body }
        return json(current)
      },
    })
    renderCard()
    const toggle = await screen.findByRole('switch', { name: 'Links only' })
    await userEvent.click(toggle)
    expect(await screen.findByLabelText('Home page redirects to')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Home page redirects to'), 'javascript:alert(1)')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Please enter a valid URL')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Home page redirects to'))
    await userEvent.type(screen.getByLabelText('Home page redirects to'), 'https://shop.example/')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('qr.shop.example now serves links only.')
    expect(sent).toEqual([
      { linksOnly: true, rootUrl: '' },
      { linksOnly: true, rootUrl: 'javascript:alert(1)' },
      { linksOnly: true, rootUrl: 'https://shop.example/' },
    ])
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import type { Product } from './api/products'

const product: Product = {
  gtin: '09506000134352',
  name: 'Oat cereal',
  links: [
    { linkType: 'gs1:pip', href: 'https://brand.example/fr', title: 'Infos', language: 'fr' },
    { linkType: 'gs1:defaultLink', href: 'https://brand.example/p', title: 'Product' },
    { linkType: 'gs1:pip', href: 'https://brand.example/en', title: 'Info', language: 'en' },
  ],
  lots: [],
  createdAt: '2026-11-20T08:00:00Z',
  updatedAt: '2026-11-20T08:00:00Z',
}

const recalled: Product = {
  ...product,
  lots: [
    {
      lot: 'B42',
      links: [
        { linkType: 'gs1:recallStatus', href: 'https://brand.example/recall', title: 'Recall notice' },
        { linkType: 'gs1:defaultLink', href: 'https://brand.example/recall', title: 'Recall notice' },
      ],
    },
  ],
}

describe('Products page', { timeout: 30_000 }, () => {
  it('lists links by type and language, recalls a lot in one step, and shows scans by GTIN and lot', async () => {
    let current = product
    const fetchMock = stubFetch({
      'GET /api/user': () => json(alice),
      'GET /api/workspaces': () => json([{ ...alice.workspace, personal: true }]),
      'GET /api/gs1/products': () => json([current]),
      'GET /api/gs1/analytics': () => json({ from: '2026-11-01', to: '2026-11-30', scans: [{ gtin: product.gtin, name: product.name, lot: 'B42', linkType: 'gs1:recallStatus', scans: 7 }] }),
      'POST /api/gs1/products/09506000134352/lots/B42/recall': () => {
        current = recalled
        return json(recalled)
      },
    })
    renderApp('/workspace/products')
    const links = await screen.findByRole('list', { name: 'Links of Oat cereal' })
    expect(within(links).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'gs1:defaultLinkProduct',
      'gs1:pipenInfo',
      'gs1:pipfrInfos',
    ])
    expect(screen.getByRole('cell', { name: '7' })).toBeInTheDocument()

    await userEvent.type(screen.getByRole('textbox', { name: 'Lot' }), 'B42')
    await userEvent.type(screen.getByLabelText('Recall notice'), 'https://brand.example/recall')
    await userEvent.click(screen.getByRole('button', { name: 'Recall lot' }))
    expect(await screen.findByText('Recalled')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({ href: 'https://brand.example/recall' })
  })

  it('tells viewers that editors change products', async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 2, name: 'Shop', role: 'viewer' } }),
      'GET /api/gs1/products': () => json([product]),
      'GET /api/gs1/analytics': () => json({ from: '', to: '', scans: [] }),
    })
    renderApp('/workspace/products')
    expect(await screen.findByText('You can see the products of Shop; editors and admins change them.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Recall lot' })).not.toBeInTheDocument()
  })
})

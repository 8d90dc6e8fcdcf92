import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, renderApp, stubFetch } from '@/test/render-app'

const signedOut = () => json({ message: 'Not authenticated' }, 401)

async function subscribe(email: string) {
  const input = await screen.findByLabelText('Email address')
  if (email) await userEvent.type(input, email)
  await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
}

describe('footer newsletter signup', () => {
  it.each(['', 'not-an-email'])("refuses %j with 'Invalid email' and sends nothing", async (email) => {
    const mock = stubFetch({ 'GET /api/user': signedOut })
    renderApp('/faq')
    await subscribe(email)
    expect(await screen.findByText('Invalid email')).toBeInTheDocument()
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(mock.mock.calls.map(([url]) => url)).toEqual(['/api/user'])
  })

  it('subscribes and says so', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/newsletter-signup': () => json({ ok: true }) })
    renderApp('/faq')
    await subscribe('shark@example.com')
    expect(await screen.findByText('Welcome to the pack!')).toBeInTheDocument()
    expect(screen.getByText("You'll receive weekly Shark Tips about QR codes and marketing strategies.")).toBeInTheDocument()
    expect(screen.getByText('Successfully subscribed!')).toBeInTheDocument()
    const call = mock.mock.calls.find(([url]) => url === '/api/newsletter-signup')
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: 'shark@example.com' })
  })

  it('reports a failure and keeps the form', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    renderApp('/faq')
    await subscribe('shark@example.com')
    expect(await screen.findByText('Subscription failed')).toBeInTheDocument()
    expect(screen.getByText('Please try again later or contact support.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeInTheDocument()
  })
})

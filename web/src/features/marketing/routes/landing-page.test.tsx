import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { LandingPage } from './landing-page'

function renderLanding() {
  const router = createMemoryRouter(
    [{ path: '/', element: <LandingPage generator={<p>the generator</p>} trialBanner={<p>the trial</p>} /> }],
    { initialEntries: ['/'] },
  )
  return render(<RouterProvider router={router} />)
}

describe('the landing page', () => {
  it('holds the generator under #qr-generator, the trial offer and the claims', () => {
    const { container } = renderLanding()
    expect(container.querySelector('#qr-generator')).toHaveTextContent('the generator')
    expect(screen.getByText('the trial')).toBeInTheDocument()
    for (const claim of ['10M+', '50K+', '99.9%', '24/7']) expect(screen.getByText(claim)).toBeInTheDocument()
    expect(screen.getByText(/Static QR codes are free forever and download as PNG, SVG or PDF/)).toBeInTheDocument()
  })

  it('has 8 FAQ questions, one open at a time', async () => {
    renderLanding()
    const questions = screen.getAllByRole('button', { expanded: false })
    expect(questions).toHaveLength(8)
    await userEvent.click(questions[0])
    expect(questions[0]).toHaveAttribute('aria-expanded', 'true')
    await userEvent.click(questions[3])
    expect(questions[3]).toHaveAttribute('aria-expanded', 'true')
    expect(questions[0]).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1)
    await userEvent.click(questions[3])
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0)
  })
})

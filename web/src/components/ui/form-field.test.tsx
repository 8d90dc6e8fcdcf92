import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef } from 'react'
import { describe, expect, it } from 'vitest'
import { TextField } from './form-field'

describe('TextField', () => {
  it('labels its input and leaves it valid while there is no message', () => {
    render(<TextField id="email" label="Email" type="email" placeholder="you@example.com" />)
    const input = screen.getByLabelText('Email')
    expect(input).toHaveAttribute('id', 'email')
    expect(input).toHaveAttribute('type', 'email')
    expect(input).toHaveAttribute('placeholder', 'you@example.com')
    expect(input).not.toHaveAttribute('aria-invalid')
    expect(input).not.toHaveAttribute('aria-describedby')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('marks the input invalid and describes it by the message', () => {
    render(<TextField id="email" label="Email" error="Enter a valid e-mail address" />)
    const input = screen.getByLabelText('Email')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAttribute('aria-describedby', 'email-error')
    expect(screen.getByRole('alert')).toHaveAttribute('id', 'email-error')
    expect(input).toHaveAccessibleDescription('Enter a valid e-mail address')
  })

  it('passes the ref and handlers through to the input, as register(...) needs', async () => {
    const ref = createRef<HTMLInputElement>()
    const seen: string[] = []
    render(<TextField id="name" label="Name" ref={ref} onChange={(e) => seen.push(e.target.value)} />)
    await userEvent.type(screen.getByLabelText('Name'), 'ab')
    expect(ref.current).toBe(screen.getByLabelText('Name'))
    expect(seen).toEqual(['a', 'ab'])
  })

  it('shows the label aside and the hint', () => {
    render(
      <TextField id="pw" label="Password" labelAside={<a href="#">Forgot my password</a>}>
        <p>Short link: sq.ly/x</p>
      </TextField>,
    )
    expect(screen.getByRole('link', { name: 'Forgot my password' })).toBeInTheDocument()
    expect(screen.getByText('Short link: sq.ly/x')).toBeInTheDocument()
  })
})

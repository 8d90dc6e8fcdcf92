import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/toaster'
import { dismissToast, toast, TOAST_LIMIT, TOAST_REMOVE_DELAY, useToasts } from './use-toast'
import { renderHook } from '@testing-library/react'

describe('toast store', () => {
  it('keeps at most one toast: the newest', () => {
    const { result } = renderHook(() => useToasts())
    act(() => {
      toast({ title: 'First' })
      toast({ title: 'Second' })
    })
    expect(TOAST_LIMIT).toBe(1)
    expect(result.current).toHaveLength(1)
    expect(result.current[0].title).toBe('Second')
  })

  it('closes a dismissed toast and removes it after TOAST_REMOVE_DELAY', () => {
    vi.useFakeTimers()
    try {
      const { result } = renderHook(() => useToasts())
      let id = ''
      act(() => {
        id = toast({ title: 'Saved' })
      })
      act(() => dismissToast(id))
      expect(result.current[0].open).toBe(false)
      act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1))
      expect(result.current).toHaveLength(1)
      act(() => vi.advanceTimersByTime(1))
      expect(result.current).toHaveLength(0)
    } finally {
      vi.useRealTimers()
    }
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000)
  })

  it('renders one toast at a time with its title and description', () => {
    render(<Toaster />)
    act(() => {
      toast({ title: 'Login failed', description: 'Invalid username or password', variant: 'destructive' })
      toast({ title: 'Logged out', description: 'You have been successfully logged out' })
    })
    expect(screen.getByText('Logged out')).toBeInTheDocument()
    expect(screen.getByText('You have been successfully logged out')).toBeInTheDocument()
    expect(screen.queryByText('Login failed')).not.toBeInTheDocument()
  })

  it('words a failure in white on a red dark enough to read (4.5:1)', () => {
    render(<Toaster />)
    act(() => {
      toast({ title: 'Could not rename the QR code', description: 'Please try again.', variant: 'destructive' })
    })
    const description = screen.getByText('Please try again.')
    expect(description.closest('li')).toHaveClass('bg-red-700', 'text-white')
    expect(description.className).not.toMatch(/opacity/)
  })

  it('closes a toast after 5000 ms', () => {
    vi.useFakeTimers()
    try {
      const { result } = renderHook(() => useToasts())
      render(<Toaster />)
      act(() => {
        toast({ title: 'Password updated' })
      })
      act(() => vi.advanceTimersByTime(4999))
      expect(result.current[0].open).toBe(true)
      act(() => vi.advanceTimersByTime(1))
      expect(result.current[0].open).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })
})

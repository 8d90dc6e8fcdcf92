import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createUrlPreviewScheduler } from './url-preview'

describe('the url preview timers', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows an acceptable address 500 ms after the last keystroke, not before', () => {
    const onPreview = vi.fn()
    const s = createUrlPreviewScheduler(onPreview)
    s.update('example.co', false)
    vi.advanceTimersByTime(300)
    s.update('example.com', false)
    vi.advanceTimersByTime(499)
    expect(onPreview).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onPreview).toHaveBeenCalledExactlyOnceWith('https://example.com')
    vi.advanceTimersByTime(2000)
    expect(onPreview).toHaveBeenCalledOnce()
  })

  it('fires the schema-valid trigger at 1000 ms as typed', () => {
    const onPreview = vi.fn()
    const s = createUrlPreviewScheduler(onPreview)
    s.update('https://example.com/a ', true)
    vi.advanceTimersByTime(500)
    expect(onPreview).toHaveBeenLastCalledWith('https://example.com/a')
    vi.advanceTimersByTime(500)
    expect(onPreview).toHaveBeenCalledTimes(2)
  })

  it('previews a schema-valid URL the 500 ms rule refuses, after 1000 ms', () => {
    const onPreview = vi.fn()
    const s = createUrlPreviewScheduler(onPreview)
    s.update('http://localhost:8080', true)
    vi.advanceTimersByTime(999)
    expect(onPreview).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onPreview).toHaveBeenCalledExactlyOnceWith('http://localhost:8080')
  })

  it('shows nothing for an unacceptable address', () => {
    const onPreview = vi.fn()
    createUrlPreviewScheduler(onPreview).update('not a url', false)
    vi.advanceTimersByTime(5000)
    expect(onPreview).not.toHaveBeenCalled()
  })

  it('clears at once when the field is emptied, and cancel stops pending timers', () => {
    const onPreview = vi.fn()
    const s = createUrlPreviewScheduler(onPreview)
    s.update('example.com', false)
    s.update('', false)
    expect(onPreview).toHaveBeenCalledExactlyOnceWith(null)
    s.update('example.com', true)
    s.cancel()
    vi.advanceTimersByTime(5000)
    expect(onPreview).toHaveBeenCalledOnce()
  })
})

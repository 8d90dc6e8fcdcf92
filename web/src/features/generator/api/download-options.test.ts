import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubFetch } from '@/test/render-app'
import { downloadGenerated } from './generator-api'

afterEach(() => vi.unstubAllGlobals())

function sentBody(mock: ReturnType<typeof stubFetch>) {
  return JSON.parse(String(mock.mock.calls[0][1]?.body)) as Record<string, unknown>
}

const png = () => new Response('png', { status: 200 })

describe('downloadGenerated', () => {
  it('sends the size for PNGs only, the background choice, and the level when there is no logo', async () => {
    let mock = stubFetch({ 'POST /api/download-qrcode': png })
    await downloadGenerated({ qrType: 'url', url: 'https://a.example' }, 'png', 4, { pixels: 2048, transparent: true, errorCorrectionLevel: 'L' })
    expect(sentBody(mock)).toMatchObject({ format: 'png', generationId: 4, pixels: 2048, transparent: true, errorCorrectionLevel: 'L' })

    vi.unstubAllGlobals()
    mock = stubFetch({ 'POST /api/download-qrcode': png })
    await downloadGenerated({ qrType: 'url', url: 'https://a.example', logoId: 9 }, 'svg', undefined, { pixels: 2048, errorCorrectionLevel: 'L' })
    const body = sentBody(mock)
    expect(body.pixels).toBeUndefined()
    expect(body.errorCorrectionLevel).toBeUndefined()
    expect(body.transparent).toBeUndefined()
  })

  it('sends the print size instead of pixels, the dpi for PNGs only and CMYK for PDF and EPS only', async () => {
    const opts = { pixels: 2048, sizeMm: 50, dpi: 600, cmyk: true, distanceCm: 200 }
    const sent = async (format: 'png' | 'svg' | 'pdf' | 'eps') => {
      vi.unstubAllGlobals()
      const mock = stubFetch({ 'POST /api/download-qrcode': png })
      await downloadGenerated({ qrType: 'url', url: 'https://a.example' }, format, undefined, opts)
      return sentBody(mock)
    }
    let body = await sent('png')
    expect(body).toMatchObject({ sizeMm: 50, dpi: 600 })
    expect(body.pixels).toBeUndefined()
    expect(body.colorSpace).toBeUndefined()
    expect(body.distanceCm).toBeUndefined()
    body = await sent('eps')
    expect(body).toMatchObject({ format: 'eps', sizeMm: 50, colorSpace: 'cmyk' })
    expect(body.dpi).toBeUndefined()
    body = await sent('svg')
    expect(body.sizeMm).toBeUndefined()
    expect(body.colorSpace).toBeUndefined()
  })
})

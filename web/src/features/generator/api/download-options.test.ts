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
})

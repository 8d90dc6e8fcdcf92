import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '@/test/render-app'
import type { UploadedFile } from '../components/type-fields'
import { currentUpload, type CodeRequest } from './use-code-actions'
import { defaultStyle } from '../lib/style'

const file = new File(['png'], 'shop.png', { type: 'image/png' })
const uploaded: UploadedFile = { id: 5, fileName: 'shop.png', imageUrl: 'http://x/images/5', kind: 'image', file, title: '', description: '' }

function request(fields: Record<string, string>, qrType: CodeRequest['qrType'] = 'images'): CodeRequest {
  return { qrType, fields, style: defaultStyle, sentStyle: {}, uploaded, name: '', dynamic: false }
}

afterEach(() => vi.unstubAllGlobals())

describe('currentUpload', () => {
  it('keeps the upload when its title and description are still the ones sent', async () => {
    const mock = stubFetch({})
    expect(await currentUpload(request({ imageFile: '5', title: '  ', description: '' }))).toBe(uploaded)
    expect(mock).not.toHaveBeenCalled()
  })

  it('sends the file again with the title typed after it was picked', async () => {
    const mock = stubFetch({
      'POST /api/upload-image': () => json({ id: 9, fileName: 'shop.png', imageUrl: 'http://x/images/9' }, 201),
    })
    const next = await currentUpload(request({ imageFile: '5', title: ' Our shop ', description: 'Open daily' }))
    expect(next).toMatchObject({ id: 9, kind: 'image', title: 'Our shop', description: 'Open daily', file })
    const body = mock.mock.calls[0][1]?.body as FormData
    expect(body.get('imageTitle')).toBe('Our shop')
    expect(body.get('imageDescription')).toBe('Open daily')
    expect(body.get('imageFile')).toBeInstanceOf(File)
  })

  it('leaves other types alone', async () => {
    const mock = stubFetch({})
    expect(await currentUpload(request({ url: 'https://example.com', title: 'x' }, 'url'))).toBe(uploaded)
    expect(mock).not.toHaveBeenCalled()
  })
})

import { describe, expect, it } from 'vitest'
import { fileNameFor } from './save-file'

describe('fileNameFor', () => {
  it('names a file after the code, keeping letters of any script', () => {
    expect(fileNameFor('Spring menu – table 4', 'url', 'png')).toBe('Spring-menu-table-4.png')
    expect(fileNameFor('Café Größe', 'url', 'svg')).toBe('Café-Größe.svg')
    expect(fileNameFor('東京 メニュー', 'url', 'pdf')).toBe('東京-メニュー.pdf')
  })

  it('drops path separators, characters Windows refuses and emoji', () => {
    expect(fileNameFor('../../etc/passwd', 'url', 'png')).toBe('etc-passwd.png')
    expect(fileNameFor('a<b>c:d"e|f?g*h\\i', 'url', 'eps')).toBe('a-b-c-d-e-f-g-h-i.eps')
    expect(fileNameFor('Menu 🍕🍕', 'url', 'png')).toBe('Menu.png')
  })

  it('falls back when nothing is left, and stays short', () => {
    expect(fileNameFor('🍕 ✨', 'wifi', 'png')).toBe('wifi.png')
    expect(fileNameFor('', 'url', 'png')).toBe('url.png')
    const long = fileNameFor(`${'x'.repeat(79)} yz`, 'url', 'png')
    expect(long).toBe(`${'x'.repeat(79)}.png`)
  })
})

import { describe, expect, it } from 'vitest'
import { clampChannel, colorAt, hexToRgb, hslToRgb, parseHex, marksFor, percentWithin, pickerStateOf, rgbToHex, rgbToHsl } from './color'

describe('hex input', () => {
  it('accepts six or three digits, with or without #', () => {
    expect(parseHex('#ff00ff')).toBe('#FF00FF')
    expect(parseHex('ff00ff')).toBe('#FF00FF')
    expect(parseHex(' BD0212 ')).toBe('#BD0212')
    expect(parseHex('#abc')).toBe('#AABBCC')
    expect(parseHex('abc')).toBe('#AABBCC')
  })

  it('refuses anything else', () => {
    for (const raw of ['', '#', '#12345', '1234567', '#gg0000', 'red', '##ff00ff']) expect(parseHex(raw), raw).toBeNull()
  })
})

describe('RGB channels', () => {
  it('convert to and from hex', () => {
    expect(hexToRgb('#BD0212')).toEqual({ r: 189, g: 2, b: 18 })
    expect(hexToRgb('00ff80')).toEqual({ r: 0, g: 255, b: 128 })
    expect(hexToRgb('nope')).toBeNull()
    expect(rgbToHex({ r: 189, g: 2, b: 18 })).toBe('#BD0212')
    expect(rgbToHex({ r: 0, g: 0, b: 0 })).toBe('#000000')
  })

  it('are whole numbers from 0 to 255', () => {
    expect(clampChannel('128')).toBe(128)
    expect(clampChannel(300)).toBe(255)
    expect(clampChannel(-4)).toBe(0)
    expect(clampChannel('12.6')).toBe(13)
    expect(clampChannel('abc')).toBe(0)
    expect(rgbToHex({ r: 999, g: -1, b: 15.4 })).toBe('#FF000F')
  })
})

describe('the hue and position model', () => {
  it('converts HSL to RGB and back', () => {
    expect(hslToRgb(0, 100, 50)).toEqual({ r: 255, g: 0, b: 0 })
    expect(hslToRgb(300, 100, 50)).toEqual({ r: 255, g: 0, b: 255 })
    expect(hslToRgb(200, 0, 100)).toEqual({ r: 255, g: 255, b: 255 })
    const { h, s, l } = rgbToHsl({ r: 255, g: 0, b: 255 })
    expect([Math.round(h), Math.round(s), Math.round(l)]).toEqual([300, 100, 50])
    expect(rgbToHsl({ r: 0, g: 0, b: 0 })).toEqual({ h: 0, s: 0, l: 0 })
  })

  it('reads a colour off the area: saturation to the right, lightness downwards', () => {
    expect(colorAt(200, { x: 50, y: 50 })).toBe(rgbToHex(hslToRgb(200, 50, 50)))
    expect(colorAt(300, { x: 100, y: 50 })).toBe('#FF00FF')
    expect(colorAt(123, { x: 0, y: 0 })).toBe('#FFFFFF')
    expect(colorAt(123, { x: 100, y: 100 })).toBe('#000000')
  })

  it('places a typed colour back in the picker', () => {
    expect(pickerStateOf('#FF00FF')).toEqual({ hue: 300, position: { x: 100, y: 50 } })
    expect(pickerStateOf('nope')).toBeNull()
  })

  it('puts the marks where the area draws a colour, keeping what the colour leaves open', () => {
    // Already on it (a drag's fractional point): unchanged.
    const point = { x: 33.3, y: 41.7 }
    expect(marksFor(colorAt(10, point), 10, point)).toEqual({ hue: 10, position: point })
    expect(marksFor('#FF00FF', 300, { x: 30, y: 70 })).toEqual({ hue: 300, position: { x: 100, y: 50 } })
    expect(marksFor('#000000', 200, { x: 50, y: 50 })).toEqual({ hue: 200, position: { x: 50, y: 100 } })
    expect(marksFor('#FFFFFF', 200, { x: 40, y: 50 })).toEqual({ hue: 200, position: { x: 40, y: 0 } })
    expect(marksFor('#808080', 200, { x: 40, y: 50 })).toEqual({ hue: 200, position: { x: 0, y: 50 } })
    expect(marksFor('nope', 200, { x: 40, y: 50 })).toEqual({ hue: 200, position: { x: 40, y: 50 } })
  })

  it('keeps pointer positions inside the area', () => {
    expect(percentWithin(50, 200)).toBe(25)
    expect(percentWithin(-10, 200)).toBe(0)
    expect(percentWithin(500, 200)).toBe(100)
    expect(percentWithin(10, 0)).toBe(0)
  })
})

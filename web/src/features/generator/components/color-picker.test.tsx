import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { colorAt } from '../lib/color'
import { ColorPicker } from './color-picker'

function Harness({ onChange, initial = '#000000' }: { onChange: (hex: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial)
  return (
    <ColorPicker
      label="Main"
      value={value}
      onChange={(hex) => {
        onChange(hex)
        setValue(hex)
      }}
      initialHue={200}
      initialPosition={{ x: 50, y: 50 }}
      placeholder="#BD0212"
    />
  )
}

/** The colour at the middle of the area for the first picker's starting hue. */
const middle = colorAt(200, { x: 50, y: 50 })

/** Where a slider's mark is drawn (its inline left and top). */
function markAt(name: string) {
  const mark = screen.getByRole('slider', { name }).querySelector('span') as HTMLElement
  return { left: mark.style.left, top: mark.style.top }
}

/** A 200 × 100 box at the origin, so pointer coordinates are percentages of it. */
function sized(el: HTMLElement) {
  el.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 100, right: 200, bottom: 100, x: 0, y: 0, toJSON() {} })
  return el
}

describe('the colour picker', () => {
  it('starts at hue 200 and the middle of the area without changing the colour', () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} initial={middle} />)
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '200')
    expect(screen.getByRole('slider', { name: 'Main: saturation and lightness' })).toHaveAttribute(
      'aria-valuetext',
      'saturation 50%, lightness 50%',
    )
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '50%', top: '50%' })
    expect(screen.getByLabelText('HEX')).toHaveValue(middle)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('puts the mark on black, the bottom row, keeping the starting hue and saturation', () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} />)
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '200')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '50%', top: '100%' })
    expect(onChange).not.toHaveBeenCalled()
  })

  it('moves the marks onto a typed hex or channel value', async () => {
    render(<Harness onChange={vi.fn()} initial={middle} />)
    const hex = screen.getByLabelText('HEX')
    await userEvent.clear(hex)
    await userEvent.type(hex, '#FF0000')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '100%', top: '50%' })
    expect(markAt('Main: hue')).toEqual({ left: '0%', top: '' })
    const green = screen.getByLabelText('g')
    await userEvent.clear(green)
    await userEvent.type(green, '255')
    // #FFFF00: hue 60, full saturation, lightness 50.
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '60')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '100%', top: '50%' })
    const blue = screen.getByLabelText('b')
    await userEvent.clear(blue)
    await userEvent.type(blue, '255')
    // White: any hue and saturation draw it, so those stay; the mark goes to the top row.
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '60')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '100%', top: '0%' })
  })

  it('moves the marks onto a colour the parent sets, and onto the colour it mounts with', () => {
    const { rerender, unmount } = render(
      <ColorPicker label="Main" value="#00FF00" onChange={vi.fn()} initialHue={300} initialPosition={{ x: 30, y: 70 }} />,
    )
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '120')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '100%', top: '50%' })
    rerender(<ColorPicker label="Main" value="#808080" onChange={vi.fn()} initialHue={300} initialPosition={{ x: 30, y: 70 }} />)
    // Grey: the hue stays, the mark goes to the left edge at half lightness.
    expect(screen.getByRole('slider', { name: 'Main: hue' })).toHaveAttribute('aria-valuenow', '120')
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '0%', top: '50%' })
    unmount()
    // Leaving the tab and coming back mounts the picker again: the marks sit on the colour, not on the defaults.
    render(<ColorPicker label="Main" value="#FF00FF" onChange={vi.fn()} initialHue={300} initialPosition={{ x: 30, y: 70 }} />)
    expect(markAt('Main: saturation and lightness')).toEqual({ left: '100%', top: '50%' })
  })

  it('follows the pointer while it is held and commits on release', () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} initial={middle} />)
    const area = sized(screen.getByRole('slider', { name: 'Main: saturation and lightness' }))
    fireEvent.pointerDown(area, { clientX: 20, clientY: 10, pointerId: 1 })
    fireEvent.pointerMove(area, { clientX: 150, clientY: 25, pointerId: 1 })
    expect(area).toHaveAttribute('aria-valuetext', 'saturation 75%, lightness 75%')
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.pointerUp(area, { clientX: 150, clientY: 25, pointerId: 1 })
    expect(onChange).toHaveBeenCalledExactlyOnceWith(colorAt(200, { x: 75, y: 25 }))
    // Moving without a held pointer changes nothing.
    fireEvent.pointerMove(area, { clientX: 0, clientY: 0, pointerId: 1 })
    expect(area).toHaveAttribute('aria-valuetext', 'saturation 75%, lightness 75%')
  })

  it('drags the hue strip and commits the area colour in the new hue', () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} initial={middle} />)
    const strip = sized(screen.getByRole('slider', { name: 'Main: hue' }))
    fireEvent.pointerDown(strip, { clientX: 0, clientY: 5, pointerId: 1 })
    fireEvent.pointerMove(strip, { clientX: 100, clientY: 5, pointerId: 1 })
    expect(strip).toHaveAttribute('aria-valuenow', '180')
    fireEvent.pointerUp(strip, { clientX: 100, clientY: 5, pointerId: 1 })
    expect(onChange).toHaveBeenCalledExactlyOnceWith(colorAt(180, { x: 50, y: 50 }))
  })

  it('takes RGB channels from 0 to 255', async () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} />)
    const red = screen.getByLabelText('r')
    await userEvent.clear(red)
    await userEvent.type(red, '300')
    expect(onChange).toHaveBeenLastCalledWith('#FF0000')
    expect(red).toHaveValue(255)
    expect(screen.getByLabelText('HEX')).toHaveValue('#FF0000')
  })

  it('takes a hex colour with or without #, and ignores a bad one', async () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} />)
    const hex = screen.getByLabelText('HEX')
    await userEvent.clear(hex)
    expect(hex).toHaveAttribute('placeholder', '#BD0212')
    await userEvent.type(hex, 'bd0212')
    expect(onChange).toHaveBeenLastCalledWith('#BD0212')
    await userEvent.clear(hex)
    await userEvent.type(hex, '#00ff00{Enter}')
    expect(onChange).toHaveBeenLastCalledWith('#00FF00')
    expect(screen.getByLabelText('g')).toHaveValue(255)
    onChange.mockClear()
    await userEvent.clear(hex)
    await userEvent.type(hex, 'zzz{Enter}')
    expect(onChange).not.toHaveBeenCalled()
    expect(hex).toHaveValue('#00FF00')
  })
})

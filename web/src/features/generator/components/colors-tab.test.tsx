import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { defaultStyle, styleFields, styleFromRecord, type StyleState } from '../lib/style'
import { ColorsTab } from './colors-tab'

/** The tab with its state, reporting every change. */
function renderTab(start: Partial<StyleState> = {}, signedIn = true) {
  const changes = vi.fn()
  function Harness() {
    const [style, setStyle] = useState<StyleState>({ ...defaultStyle, ...start })
    return (
      <ColorsTab
        style={style}
        signedIn={signedIn}
        onChange={(patch) => {
          changes(patch)
          setStyle((s) => ({ ...s, ...patch }))
        }}
      />
    )
  }
  const router = createMemoryRouter([{ path: '*', element: <Harness /> }])
  render(<RouterProvider router={router} />)
  return changes
}

const group = (name: string) => screen.getByRole('radiogroup', { name })

describe('ColorsTab', () => {
  it('offers every body shape', async () => {
    const changes = renderTab()
    const body = group('Body style')
    const labels = within(body)
      .getAllByRole('radio')
      .map((r) => r.textContent)
    expect(labels).toEqual(['Square', 'Circle', 'Rounded', 'Dots', 'Classy', 'Classy rounded', 'Extra rounded'])
    await userEvent.click(within(body).getByRole('radio', { name: 'Classy rounded' }))
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'classy-rounded' })
    expect(within(body).getByRole('radio', { name: 'Classy rounded' })).toHaveAttribute('aria-checked', 'true')
  })

  it('offers the eye frame and eye ball shapes on Edge and Center, labelled as drawn', async () => {
    const changes = renderTab()
    await userEvent.click(screen.getByRole('tab', { name: 'Edge and Center' }))
    // A "dot" ring is drawn as the very rounded one: the frame offers that shape once.
    expect(within(group('Border style')).getAllByRole('radio').map((r) => r.textContent)).toEqual(['Square', 'Slightly rounded', 'Rounded', 'Very rounded'])
    expect(within(group('Center style')).getAllByRole('radio').map((r) => r.textContent)).toEqual(['Square', 'Slightly rounded', 'Rounded', 'Very rounded', 'Circle'])
    await userEvent.click(within(group('Border style')).getByRole('radio', { name: 'Rounded' }))
    expect(changes).toHaveBeenLastCalledWith({ cornerShape: 'extra-rounded' })
    await userEvent.click(within(group('Center style')).getByRole('radio', { name: 'Circle' }))
    expect(changes).toHaveBeenLastCalledWith({ innerCornerShape: 'dot' })
  })

  it('is one Tab stop per shape group, and the arrow keys, Home and End move the choice', async () => {
    const changes = renderTab()
    const body = group('Body style')
    const radios = within(body).getAllByRole('radio')
    // Only the chosen option (Square) takes Tab.
    expect(radios.map((r) => r.tabIndex)).toEqual([0, -1, -1, -1, -1, -1, -1])
    await userEvent.click(radios[0])
    await userEvent.keyboard('{ArrowRight}')
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'circle' })
    expect(radios[1]).toHaveFocus()
    expect(radios[1]).toHaveAttribute('aria-checked', 'true')
    expect(radios.map((r) => r.tabIndex)).toEqual([-1, 0, -1, -1, -1, -1, -1])
    await userEvent.keyboard('{ArrowDown}')
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'rounded' })
    await userEvent.keyboard('{ArrowLeft}{ArrowUp}{ArrowUp}')
    // Past the first it wraps to the last.
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'extra-rounded' })
    expect(radios[6]).toHaveFocus()
    await userEvent.keyboard('{Home}')
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'square' })
    await userEvent.keyboard('{End}')
    expect(changes).toHaveBeenLastCalledWith({ dotShape: 'extra-rounded' })
    // Tab leaves the group at once, to the next group's single stop.
    await userEvent.click(screen.getByRole('tab', { name: 'Edge and Center' }))
    const border = within(group('Border style')).getAllByRole('radio')
    const center = within(group('Center style')).getAllByRole('radio')
    border[0].focus()
    await userEvent.tab()
    expect(center[0]).toHaveFocus()
  })

  it('shows the gradient options only with a second colour, and sets type, angle and eyes', async () => {
    const changes = renderTab()
    expect(screen.queryByRole('radiogroup', { name: 'Gradient type' })).toBeNull()
    await userEvent.click(screen.getByRole('radio', { name: 'Second Color' }))

    const angle = screen.getByLabelText('Gradient angle (degrees)')
    expect(angle).toHaveValue(135)
    expect(angle).toHaveAccessibleDescription(/135 \(the default\) from the top-left corner to the bottom-right/)
    await userEvent.clear(angle)
    await userEvent.type(angle, '90')
    expect(changes).toHaveBeenLastCalledWith({ gradientAngle: 90 })
    await userEvent.clear(angle)
    await userEvent.type(angle, '720')
    expect(changes).toHaveBeenLastCalledWith({ gradientAngle: 72 })
    await userEvent.tab() // leaving the box clamps what it holds
    expect(angle).toHaveValue(359)
    expect(changes).toHaveBeenLastCalledWith({ gradientAngle: 359 })

    const eyes = screen.getByRole('switch', { name: /Gradient on the eyes too/ })
    expect(eyes).not.toBeChecked()
    await userEvent.click(eyes)
    expect(changes).toHaveBeenLastCalledWith({ gradientOnEyes: true })

    await userEvent.click(within(group('Gradient type')).getByRole('radio', { name: 'Radial' }))
    expect(changes).toHaveBeenLastCalledWith({ gradientType: 'radial' })
    // A radial gradient has no angle.
    expect(screen.queryByLabelText('Gradient angle (degrees)')).toBeNull()
  })
})

describe('style fields', () => {
  it('sends the gradient settings and reads them back from a record', () => {
    const style: StyleState = { ...defaultStyle, colorMode: 'gradient', gradientColor: '#C2185B', gradientType: 'radial', gradientAngle: 40, gradientOnEyes: true, dotShape: 'classy' }
    expect(styleFields(style)).toMatchObject({ gradientColor: '#C2185B', gradientType: 'radial', gradientAngle: 40, gradientOnEyes: true, dotShape: 'classy' })
    const back = styleFromRecord({ ...styleFields(style) })
    expect(back).toMatchObject({ colorMode: 'gradient', gradientType: 'radial', gradientAngle: 40, gradientOnEyes: true, dotShape: 'classy' })
    // Wrong types in a record fall back to the defaults.
    expect(styleFromRecord({ gradientAngle: '40', gradientOnEyes: 'yes' })).toMatchObject({ gradientAngle: 135, gradientOnEyes: false })
  })
})

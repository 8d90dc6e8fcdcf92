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

  it('offers the eye frame and eye ball shapes on Edge and Center', async () => {
    const changes = renderTab()
    await userEvent.click(screen.getByRole('tab', { name: 'Edge and Center' }))
    for (const name of ['Border style', 'Center style']) {
      expect(within(group(name)).getAllByRole('radio').map((r) => r.textContent)).toEqual([
        'Square',
        'Curve square',
        'Extra rounded',
        'Circle',
        'Dot',
      ])
    }
    await userEvent.click(within(group('Border style')).getByRole('radio', { name: 'Extra rounded' }))
    expect(changes).toHaveBeenLastCalledWith({ cornerShape: 'extra-rounded' })
    await userEvent.click(within(group('Center style')).getByRole('radio', { name: 'Dot' }))
    expect(changes).toHaveBeenLastCalledWith({ innerCornerShape: 'dot' })
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

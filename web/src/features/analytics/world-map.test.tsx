import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { shade, WorldMap, type CountryScans } from './components/world-map'
import { project, splitAtAntimeridian, viewBox, worldShapes } from './lib/world-shapes'

async function renderMap(countries: CountryScans[]) {
  const utils = render(
    <QueryClientProvider client={createQueryClient()}>
      <WorldMap countries={countries} />
    </QueryClientProvider>,
  )
  const map = await screen.findByRole('group', { name: 'World map of scans by country' })
  return { ...utils, map }
}

/** How dark a drawn country is: the share of the dark end in its colour mix. */
const darkness = (el: Element) => {
  const m = /(\d+)%, color-mix\(in srgb, var\(--color-primary\) 35%, white\)\)$/.exec((el as SVGElement).style.fill)
  if (!m) throw new Error(`unexpected fill ${(el as SVGElement).style.fill}`)
  return Number(m[1])
}

describe('WorldMap', () => {
  it('names each country with scans and shades it darker the more scans it has', async () => {
    const { map } = await renderMap([
      { country: 'US', scans: 1200 },
      { country: 'DE', scans: 12 },
      { country: 'BR', scans: 1 },
      { country: 'JP', scans: 150 },
    ])
    const named = within(map).getAllByRole('img')
    expect(named.map((el) => el.querySelector('title')?.textContent).sort()).toEqual(['Brazil: 1 scan', 'Germany: 12 scans', 'Japan: 150 scans', 'United States: 1,200 scans'])
    const order = ['United States: 1,200 scans', 'Japan: 150 scans', 'Germany: 12 scans', 'Brazil: 1 scan'].map((name) => darkness(within(map).getByRole('img', { name })))
    expect(order).toEqual([...order].sort((a, b) => b - a))
    expect(new Set(order).size).toBe(4)
    expect(order[0]).toBe(100)
    expect(order[3]).toBe(0)
    // Every other country is drawn plain and hidden from assistive technology.
    expect(map.querySelectorAll('path[aria-hidden="true"]').length).toBeGreaterThan(150)
    expect(screen.getByText('1,200')).toBeInTheDocument() // the legend's top
  })

  it('shows the scans of the country under the pointer or the keyboard focus', async () => {
    const { map } = await renderMap([{ country: 'FR', scans: 7 }])
    const france = within(map).getByRole('img', { name: 'France: 7 scans' })
    expect(screen.queryByText('France: 7 scans', { selector: 'p' })).toBeNull()
    fireEvent.focus(france)
    expect(screen.getByText('France: 7 scans', { selector: 'p' })).toBeInTheDocument()
    fireEvent.blur(france)
    fireEvent.mouseEnter(france)
    expect(screen.getByText('France: 7 scans', { selector: 'p' })).toBeInTheDocument()
    expect(france).toHaveAttribute('tabindex', '0')
  })

  it('ignores codes it cannot draw: they neither get a shape nor change the scale, and are named below', async () => {
    const { map } = await renderMap([
      { country: 'ZZ', scans: 5000 },
      { country: 'SG', scans: 40 },
      { country: 'DE', scans: 3 },
      { country: 'CA', scans: 1 },
    ])
    expect(within(map).getAllByRole('img')).toHaveLength(2)
    expect(darkness(within(map).getByRole('img', { name: 'Germany: 3 scans' }))).toBe(100)
    expect(screen.getByText(/^Too small for this map or not on it: .+ \(5,000\), Singapore \(40\)\.$/)).toBeInTheDocument()
  })

  it('draws the plain map without a legend when there is nothing to show', async () => {
    const { map } = await renderMap([])
    expect(within(map).queryAllByRole('img')).toHaveLength(0)
    expect(map.querySelectorAll('path').length).toBeGreaterThan(150)
    expect(screen.queryByText('Scans per country')).toBeNull()
    const { map: zero } = await renderMap([{ country: 'DE', scans: 0 }])
    expect(within(zero).queryAllByRole('img')).toHaveLength(0)
  })
})

describe('world shapes', () => {
  it('gives every shape a unique alpha-2 code and keeps every point on the map', () => {
    const shapes = worldShapes()
    const codes = shapes.map((s) => s.code).filter(Boolean)
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes).toEqual(expect.arrayContaining(['US', 'DE', 'RU', 'FJ', 'XK', 'BR', 'AU']))
    expect(codes).not.toContain('AQ')
    for (const s of shapes) {
      for (const [, xs, ys] of s.d.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)) {
        expect(Math.abs(Number(xs))).toBeLessThanOrEqual(viewBox.width / 2 + 0.1)
        expect(Number(ys)).toBeGreaterThanOrEqual(viewBox.y - 0.1)
        expect(Number(ys)).toBeLessThanOrEqual(viewBox.y + viewBox.height + 0.1)
      }
    }
  })

  it('cuts a ring that crosses the antimeridian into pieces on either edge, with no edge across the world', () => {
    const ring: [number, number][] = [
      [170, 60],
      [-170, 60],
      [-170, 70],
      [170, 70],
      [170, 60],
    ]
    const pieces = splitAtAntimeridian(ring)
    expect(pieces).toHaveLength(2)
    for (const piece of pieces) {
      const lons = piece.map((p) => p[0])
      expect(Math.max(...lons) - Math.min(...lons)).toBeCloseTo(10)
    }
    expect(splitAtAntimeridian(ring.map(([lon, lat]) => [lon - 20, lat]))).toHaveLength(1)
  })

  it('projects the equator and the prime meridian through the centre, north up', () => {
    expect(project([0, 0])).toEqual([0, -0])
    expect(project([90, 0])[0]).toBeGreaterThan(0)
    expect(project([0, 45])[1]).toBeLessThan(0)
  })

  it('shades from 0 for one scan to 1 for the most', () => {
    expect(shade(1, 100)).toBe(0)
    expect(shade(100, 100)).toBe(1)
    expect(shade(10, 100)).toBeCloseTo(0.5)
    expect(shade(1, 1)).toBe(1)
  })
})

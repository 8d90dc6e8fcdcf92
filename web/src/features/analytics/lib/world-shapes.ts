import { whereNumeric } from 'iso-3166-1'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import countries110m from 'world-atlas/countries-110m.json'

// Natural Earth's 1:110m countries (public domain, packaged as TopoJSON by
// world-atlas), drawn in the Equal Earth projection. This module is only ever
// imported dynamically, so the shapes load with the map and nowhere else.

type Point = [lon: number, lat: number]

/** One country as an SVG path; code is its ISO 3166-1 alpha-2 code, '' where it has none. */
export interface CountryShape {
  code: string
  d: string
}

// Equal Earth (Šavrič, Patterson and Jenny, 2018): equal areas, so a big country does not look bigger than it is.
const A1 = 1.340264
const A2 = -0.081106
const A3 = 0.000893
const A4 = 0.003796
const M = Math.sqrt(3) / 2
const scale = 150 // SVG units per radian

/** A point's place on the map, y growing downwards as in SVG. */
export function project([lon, lat]: Point): [number, number] {
  const lambda = (lon * Math.PI) / 180
  const l = Math.asin(M * Math.sin((lat * Math.PI) / 180))
  const l2 = l * l
  const l6 = l2 * l2 * l2
  const x = (lambda * Math.cos(l)) / (M * (A1 + 3 * A2 * l2 + l6 * (7 * A3 + 9 * A4 * l2)))
  const y = l * (A1 + A2 * l2 + l6 * (A3 + A4 * l2))
  return [x * scale, -y * scale]
}

// The map shows the inhabited latitudes: Antarctica is left out (below) and
// would otherwise take a fifth of the height.
const east = project([180, 0])[0]
const top = project([0, 84])[1]
const bottom = project([0, -57])[1]
export const viewBox = { x: -east, y: top, width: 2 * east, height: bottom - top }

/**
 * Rings that cross the antimeridian (Russia's far east, Fiji) jump from 180°
 * to −180°. Made continuous, then cut at ±180° with each piece moved back onto
 * the map, they draw without a stripe across the world.
 */
export function splitAtAntimeridian(ring: Point[]): Point[][] {
  const out: Point[] = [ring[0]]
  for (let i = 1; i < ring.length; i++) {
    let lon = ring[i][0]
    const prev = out[i - 1][0]
    while (lon - prev > 180) lon -= 360
    while (lon - prev < -180) lon += 360
    out.push([lon, ring[i][1]])
  }
  const lons = out.map((p) => p[0])
  if (Math.min(...lons) >= -180 && Math.max(...lons) <= 180) return [out]
  return [-360, 0, 360]
    .map((shift) => clipLongitude(out.map(([lon, lat]): Point => [lon + shift, lat]), -180, 180))
    .filter((piece) => piece.length >= 3)
}

/** Sutherland–Hodgman against the two meridians lo and hi, interpolating in degrees (fine for short edges). */
function clipLongitude(ring: Point[], lo: number, hi: number): Point[] {
  const edges: [inside: (p: Point) => boolean, at: number][] = [
    [(p) => p[0] >= lo, lo],
    [(p) => p[0] <= hi, hi],
  ]
  let result = ring
  for (const [inside, at] of edges) {
    const input = result
    result = []
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]
      const prev = input[(i + input.length - 1) % input.length]
      if (inside(cur) !== inside(prev)) {
        const t = (at - prev[0]) / (cur[0] - prev[0])
        result.push([at, prev[1] + t * (cur[1] - prev[1])])
      }
      if (inside(cur)) result.push(cur)
    }
    if (result.length === 0) break
  }
  return result
}

function ringPath(ring: Point[]) {
  let d = ''
  let last = ''
  for (const p of ring) {
    const [x, y] = project(p)
    const xy = `${x.toFixed(1)},${y.toFixed(1)}`
    if (xy === last) continue // at this scale many points round to the same place
    d += (d ? 'L' : 'M') + xy
    last = xy
  }
  return d + 'Z'
}

// Natural Earth gives Kosovo no numeric code; the IP data calls it XK.
const codeByName: Record<string, string> = { Kosovo: 'XK' }
const antarctica = '010'

/** Every country of the map with its alpha-2 code and its path. */
export function worldShapes(): CountryShape[] {
  const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>
  const shapes: CountryShape[] = []
  for (const f of feature(topology, topology.objects.countries).features) {
    if (f.id === antarctica) continue
    const g = f.geometry
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []
    const d = polygons
      .flat()
      .flatMap((ring) => splitAtAntimeridian(ring as Point[]))
      .map(ringPath)
      .join('')
    const code = (f.id === undefined ? undefined : whereNumeric(f.id)?.alpha2) ?? codeByName[f.properties?.name ?? ''] ?? ''
    shapes.push({ code, d })
  }
  return shapes
}

import { useQuery } from '@tanstack/react-query'

interface Place {
  country: string
  region: string
  city?: string
  scans: number
}

interface PlacesReport {
  regions: Place[]
  cities: Place[]
  citiesEnabled: boolean
}

/** [value, label] pairs for a picker: each name once, labelled where the most scans placed it, sorted by name. */
function choices(places: Place[], name: (p: Place) => string, where: (p: Place) => string) {
  const byName = new Map<string, readonly [string, string]>()
  for (const p of [...places].sort((a, b) => b.scans - a.scans)) {
    const key = name(p).toLowerCase()
    if (key && !byName.has(key)) byName.set(key, [name(p), `${name(p)}, ${where(p)}`])
  }
  return [...byName.values()].sort((a, b) => a[1].localeCompare(b[1]))
}

/**
 * The regions and cities the workspace's scans have come from (all time,
 * the account analytics' own answer), for the routing conditions' pickers;
 * citiesEnabled is whether the server has a city database at all.
 */
export function useScanPlaces() {
  const report = useQuery<PlacesReport>({ queryKey: ['/api/analytics?period=all&tz=UTC'] })
  const data = report.data
  return {
    citiesEnabled: data?.citiesEnabled ?? false,
    regions: data ? choices(data.regions, (p) => p.region, (p) => p.country) : [],
    cities: data ? choices(data.cities, (p) => p.city ?? '', (p) => [p.region, p.country].filter(Boolean).join(', ')) : [],
  }
}

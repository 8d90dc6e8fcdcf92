import { AlertCircle, Barcode, Download, FileDown, FileText, Globe, Layers, MapPin, QrCode, RefreshCw, ScanLine, Share2, Sparkles, Split, Trophy, X, Zap } from 'lucide-react'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { qrTypeLabel } from '@/lib/qr-types'
import { ApiError, serverMessage } from '@/lib/api-client'
import { breakdownCsvUrl, rangeQuery, reportPdfUrl, scansCsvUrl, useDynamicCodes, useScanReport, useUserAnalytics, type RangeChoice, type RangePreset } from '../api/queries'
import type { ScanReport, UserAnalytics } from '../api/types'
import { countryName } from '../lib/country-name'
import { BarChart, ShareBars, SplitRing, toEntries } from './charts'
import { PageStats } from '@/features/pages'
import { Gs1ScanTable, useHasGs1Scans } from './gs1-scan-table'
import { hasRoutes, RoutesTable } from './routes-panel'
import { WorldMap } from './world-map'
import { countOf, nounFor } from '@/lib/count'

// The share dialog (and its form) loads only when first opened.
const ShareDialog = lazy(() => import('./share-dialog').then((m) => ({ default: m.ShareDialog })))
// The Reports tab (schedules and their dialog) loads only when first opened.
const ReportsTab = lazy(() => import('./reports-tab').then((m) => ({ default: m.ReportsTab })))

export interface AnalyticsDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** The Analytics Dashboard dialog: the user's totals, then a closer look at one dynamic code. */
export function AnalyticsDialog({ open, onOpenChange }: AnalyticsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[92vh] max-w-5xl overflow-y-auto bg-slate-50 p-0">
        <DialogHeader className="sticky top-0 z-10 border-b border-slate-200 bg-white px-6 py-4">
          <DialogTitle className="text-xl">Analytics Dashboard</DialogTitle>
          <DialogDescription>How your QR codes perform: totals, scans over time and who scans them.</DialogDescription>
        </DialogHeader>
        <Tabs defaultValue="overview" className="px-4 pb-6 sm:px-6">
          <TabsList aria-label="Analytics views">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="reports">Reports</TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <AnalyticsBody />
          </TabsContent>
          <TabsContent value="reports">
            <Suspense fallback={<Spinner label="Loading reports..." />}>
              <ReportsTab />
            </Suspense>
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  )
}

function AnalyticsBody() {
  const { data, isLoading, isError, refetch, isFetching } = useUserAnalytics()
  if (isLoading) return <Spinner label="Loading analytics..." />
  if (isError || !data) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-16 text-center">
        <AlertCircle className="size-10 text-red-500" aria-hidden="true" />
        <p className="font-semibold text-slate-900">Failed to load analytics data</p>
        <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
          <RefreshCw aria-hidden="true" className={isFetching ? 'animate-spin' : undefined} />
          Try Again
        </Button>
      </div>
    )
  }
  return (
    <div className="grid gap-5">
      <Overview data={data} />
      <div className="grid gap-5 lg:grid-cols-2">
        <Panel title="QR Code Types" icon={<Layers />}>
          <ShareBars entries={toEntries(data.qrTypeDistribution, qrTypeLabel)} empty="No QR codes yet" />
        </Panel>
        <TopCodes data={data} />
      </div>
      <CodeInsights topDynamic={data.dynamicQrPerformance} />
      <ProductScans />
    </div>
  )
}

/** GS1 Digital Link scans, resolved per GTIN and lot rather than per code: shown once there are any. */
function ProductScans() {
  if (!useHasGs1Scans()) return null
  return (
    <Panel title="Products: scans by GTIN and lot" icon={<Barcode />}>
      <p className="-mt-2 text-xs text-slate-500">GS1 Digital Link scans of the last 30 days, on your domains and this site.</p>
      <Gs1ScanTable caption="GS1 scans by GTIN and lot" />
    </Panel>
  )
}

function Overview({ data }: { data: UserAnalytics }) {
  const o = data.overview
  const stats: { label: string; value: number; icon: ReactNode; note?: string }[] = [
    { label: 'Total QR Codes', value: o.totalQrCodes, icon: <QrCode /> },
    { label: 'Total Scans', value: o.totalScans, icon: <ScanLine />, note: 'Human scans of dynamic codes' },
    { label: 'Total Downloads', value: o.totalDownloads, icon: <Download />, note: `${data.recentActivity.downloads} in the last 30 days` },
    { label: 'Total Generations', value: o.totalGenerations, icon: <Sparkles />, note: `${data.recentActivity.generations} in the last 30 days` },
    { label: 'Static QR Codes', value: o.staticQrCodes, icon: <Layers /> },
    { label: 'Dynamic QR Codes', value: o.dynamicQrCodes, icon: <Zap /> },
  ]
  return (
    <ul className="mt-5 grid grid-cols-2 gap-3 md:grid-cols-3">
      {stats.map((s) => (
        <li key={s.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <div className="flex items-center justify-between text-slate-500 [&_svg]:size-4">
            <span className="text-xs font-medium">{s.label}</span>
            {s.icon}
          </div>
          <p className="mt-2 text-2xl font-bold tabular-nums text-slate-900">{s.value.toLocaleString()}</p>
          {s.note && <p className="mt-1 text-[11px] leading-tight text-slate-500">{s.note}</p>}
        </li>
      ))}
    </ul>
  )
}

function Panel({ title, icon, action, children }: { title: string; icon?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="grid min-w-0 content-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 font-semibold text-slate-900 [&_svg]:size-4 [&_svg]:text-primary">
          {icon}
          {title}
        </h3>
        {action}
      </div>
      {children}
    </section>
  )
}

function TopCodes({ data }: { data: UserAnalytics }) {
  return (
    <Panel title="Top Performing QR Codes" icon={<Trophy />}>
      <div className="grid gap-5">
        <RankList
          heading="Static"
          empty="No static codes yet"
          items={data.topPerformingQrCodes.map((c) => ({ id: c.id, name: c.name, detail: `${qrTypeLabel(c.type)} · ${countOf(c.generations, 'generation')}`, value: c.downloads, unit: 'download' }))}
        />
        <RankList
          heading="Dynamic"
          empty="No dynamic codes yet"
          items={data.dynamicQrPerformance.map((c) => ({ id: c.id, name: c.name, value: c.scans, unit: 'scan' }))}
        />
      </div>
    </Panel>
  )
}

function RankList({ heading, items, empty }: { heading: string; empty: string; items: { id: number; name: string; detail?: string; value: number; unit: string }[] }) {
  return (
    <div className="grid content-start gap-2">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{heading}</h4>
      {items.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ol className="grid gap-2">
          {items.slice(0, 3).map((item, i) => (
            <li key={item.id} className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2">
              <span className="grid size-6 shrink-0 place-items-center rounded-full bg-primary-100 text-xs font-bold text-secondary">{i + 1}</span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900">{item.name}</span>
                {item.detail && <span className="block truncate text-xs text-slate-500">{item.detail}</span>}
              </span>
              <span className="shrink-0 text-right text-sm font-semibold tabular-nums text-slate-900">
                {item.value} <span className="text-xs font-normal text-slate-500">{nounFor(item.value, item.unit)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** A table of regions or cities and their scans. */
function PlaceTable({ label, what, rows, csv }: { label: string; what: string; rows: { key: string; name: string; scans: number }[]; csv: ReactNode }) {
  return (
    <div className="grid content-start gap-2">
      <div className="flex items-center justify-between">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
        {csv}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">No {what} known in this range.</p>
      ) : (
        <table className="w-full text-sm" aria-label={label}>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-b border-slate-100 last:border-0">
                <td className="py-1 text-slate-900">{r.name}</td>
                <td className="py-1 text-right tabular-nums text-slate-700">{r.scans}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

const presets: { value: RangePreset; label: string }[] = [
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: 'all', label: 'All time' },
  { value: 'custom', label: 'Custom' },
]

const selectClass =
  'h-9 max-w-56 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30'

/** A series point's label in the report's time zone: the day, or the day and hour. */
function pointLabel(start: string, report: ScanReport) {
  const opts: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', timeZone: report.timeZone }
  if (report.granularity === 'hour') opts.hour = '2-digit'
  return new Intl.DateTimeFormat(undefined, opts).format(new Date(start))
}

/** The change against the previous period of the same length, as text. */
function change(report: ScanReport) {
  if (!report.previous) return undefined
  const before = report.previous.scans
  if (before === 0) return report.scans === 0 ? 'No change on the previous period' : `Up from 0 in the previous period`
  const pct = Math.round(((report.scans - before) / before) * 100)
  return `${pct >= 0 ? '+' : ''}${pct}% on the previous period (${before})`
}

/** A country's name in the table: while every country is counted, a button that shows its scans alone. */
function CountryName({ name, onlyThis }: { name: string; onlyThis?: () => void }) {
  if (!onlyThis) return name
  return (
    <button type="button" className="text-left hover:text-primary hover:underline" aria-label={`Show only scans from ${name}`} onClick={onlyThis}>
      {name}
    </button>
  )
}

/** The chip of a country filter: "Only Germany". */
const onlyLabel = (country: string) => `Only ${country === 'unknown' ? 'unknown countries' : countryName(country)}`

/** Scans of one dynamic code or of them all over a chosen range: over time, countries, devices, systems, browsers, referrers, peak hours, humans against bots. */
function CodeInsights({ topDynamic }: { topDynamic: UserAnalytics['dynamicQrPerformance'] }) {
  const codes = useDynamicCodes()
  const [chosen, setChosen] = useState<number | 'all'>()
  const [choice, setChoice] = useState<RangeChoice>({ preset: '30d', bots: false })
  const [sharing, setSharing] = useState(false)
  const id = chosen ?? topDynamic[0]?.id ?? codes[0]?.id
  // A code that opens a hosted page shows the page's own counts too.
  const pageId = id === 'all' ? undefined : (codes.find((c) => c.id === id)?.pageId ?? undefined)
  // An imported link's old total at its former shortener, shown apart from the scans here.
  const importedClicks = id === 'all' ? 0 : (codes.find((c) => c.id === id)?.importedClicks ?? 0)
  const customIncomplete = choice.preset === 'custom' && (!choice.from || !choice.to)
  const query = rangeQuery(choice)
  // The page's counts over the same days (the last 24 hours: its last 30 days).
  const days = new URLSearchParams(query)
  const pageRange = {
    from: days.get('from') ?? (choice.preset === 'all' ? '2000-01-01' : undefined),
    to: days.get('to') ?? undefined,
  }
  const { data, error, isLoading, isError, refetch } = useScanReport(customIncomplete ? undefined : id, query)
  const onlyCountry = (country: string | undefined) => setChoice({ ...choice, country })
  // A range the server refuses (a country's, too long or past retention) says why.
  const refused = error instanceof ApiError && error.status === 400 ? serverMessage(error) : undefined
  const csv = (by: string, what: string) =>
    id === undefined ? undefined : (
      <a href={breakdownCsvUrl(id, query, by)} download className="text-xs font-medium text-primary hover:underline" aria-label={`Download ${what} CSV`}>
        CSV
      </a>
    )

  if (id === undefined) {
    return (
      <Panel title="Scans Over Time" icon={<ScanLine />}>
        <p className="py-6 text-center text-sm text-slate-500">Create a dynamic QR code to see its scans over time, devices and visitors.</p>
      </Panel>
    )
  }

  const picker = (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor="analytics-code" className="text-sm text-slate-600">
        QR code
      </label>
      <select id="analytics-code" value={id} onChange={(e) => setChosen(e.target.value === 'all' ? 'all' : Number(e.target.value))} className={selectClass}>
        <option value="all">All dynamic codes</option>
        {codes.length === 0 && topDynamic.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        {codes.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
            {c.isPaused ? ' (paused)' : ''}
          </option>
        ))}
      </select>
      {id !== 'all' && (
        <Button asChild variant="outline" size="sm">
          <a href={scansCsvUrl(id)} download>
            <FileDown aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      )}
      {id !== undefined && !customIncomplete && (
        <Button asChild variant="outline" size="sm">
          <a href={reportPdfUrl(id, query)} download>
            <FileDown aria-hidden="true" />
            PDF report
          </a>
        </Button>
      )}
      <Button variant="outline" size="sm" onClick={() => setSharing(true)}>
        <Share2 aria-hidden="true" />
        Share
      </Button>
      {sharing && (
        <Suspense fallback={<Spinner label="Loading sharing..." />}>
          <ShareDialog
            open={sharing}
            onOpenChange={setSharing}
            code={id === 'all' ? 'all' : { id, name: codes.find((c) => c.id === id)?.name ?? topDynamic.find((c) => c.id === id)?.name ?? 'this code' }}
          />
        </Suspense>
      )}
    </div>
  )

  const rangeBar = (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Date range">
      {presets.map((p) => (
        <Button key={p.value} size="sm" variant={choice.preset === p.value ? 'default' : 'outline'} aria-pressed={choice.preset === p.value} onClick={() => setChoice({ ...choice, preset: p.value })}>
          {p.label}
        </Button>
      ))}
      {choice.preset === 'custom' && (
        <>
          <label className="flex items-center gap-1 text-sm text-slate-600">
            From
            <input type="date" className={selectClass} value={choice.from ?? ''} max={choice.to} onChange={(e) => setChoice({ ...choice, from: e.target.value })} />
          </label>
          <label className="flex items-center gap-1 text-sm text-slate-600">
            To
            <input type="date" className={selectClass} value={choice.to ?? ''} min={choice.from} onChange={(e) => setChoice({ ...choice, to: e.target.value })} />
          </label>
        </>
      )}
      {choice.country && (
        <Button size="sm" variant="secondary" aria-label={`${onlyLabel(choice.country)}: show every country`} onClick={() => onlyCountry(undefined)}>
          {onlyLabel(choice.country)}
          <X aria-hidden="true" />
        </Button>
      )}
      <label className="ml-auto flex items-center gap-2 text-sm text-slate-600">
        <input type="checkbox" checked={choice.bots} onChange={(e) => setChoice({ ...choice, bots: e.target.checked })} />
        Include bots
      </label>
      {csv('time', 'scans over time')}
    </div>
  )

  return (
    <div className="grid gap-5">
      <Panel title="Scans Over Time" icon={<ScanLine />} action={picker}>
        {importedClicks > 0 && (
          <p className="text-xs text-slate-500" data-testid="imported-clicks">
            {importedClicks.toLocaleString()} {nounFor(importedClicks, 'click')} before import
          </p>
        )}
        {rangeBar}
        {customIncomplete ? (
          <p className="py-6 text-center text-sm text-slate-500">Pick the first and last day of the range.</p>
        ) : isLoading ? (
          <Spinner className="min-h-44" label="Loading scans..." />
        ) : isError || !data ? (
          <div role="alert" className="flex items-center justify-center gap-3 py-10 text-sm text-slate-600">
            <span>
              Failed to load analytics data
              {refused && <span className="block text-xs text-slate-500">{refused}</span>}
            </span>
            <Button variant="outline" size="sm" onClick={() => void refetch()}>
              Try Again
            </Button>
          </div>
        ) : (
          <>
            <dl className="grid grid-cols-3 gap-3 text-center">
              {[
                [data.bots ? 'Scans' : 'Human scans', data.scans, change(data)],
                ['Unique visitors', data.uniqueVisitors],
                ['Bot scans', data.botScans],
              ].map(([label, value, note]) => (
                <div key={label} className="rounded-xl bg-slate-50 p-3">
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className="text-xl font-bold tabular-nums text-slate-900">{value}</dd>
                  {note && <dd className="text-[11px] text-slate-500">{note}</dd>}
                </div>
              ))}
            </dl>
            <BarChart
              label={data.granularity === 'hour' ? 'Scans per hour' : 'Scans per day'}
              unit={data.granularity === 'hour' ? 'hour' : 'day'}
              bars={data.series.map((p) => ({ key: p.start, label: pointLabel(p.start, data), value: p.scans }))}
            />
            <p className="text-xs text-slate-500">
              {data.bots ? 'All scans, bots included' : 'Human scans; link-preview bots and crawlers are counted apart'}, in {data.timeZone} time. Updates every few seconds.
            </p>
          </>
        )}
      </Panel>
      {data && !customIncomplete && id !== 'all' && hasRoutes(data) && (
        <Panel title="Routes" icon={<Split />} action={csv('route', 'routes')}>
          <RoutesTable routes={data.routes} />
        </Panel>
      )}
      {!customIncomplete && pageId && (
        <Panel title="Page" icon={<FileText />}>
          <PageStats id={pageId} from={pageRange.from} to={pageRange.to} />
        </Panel>
      )}
      {data && !customIncomplete && (
        <Panel title="Countries" icon={<Globe />} action={csv('country', 'countries')}>
          {data.countries.length === 0 && data.unknownCountry === 0 ? (
            <p className="py-6 text-center text-sm text-slate-500">No scans in this range.</p>
          ) : (
            <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
              <WorldMap countries={data.countries} />
              <table className="w-full text-sm" aria-label="Scans by country">
                <tbody>
                  {data.countries.map((c) => (
                    <tr key={c.country} className="border-b border-slate-100 last:border-0">
                      <td className="py-1 text-slate-900">
                        <CountryName name={countryName(c.country)} onlyThis={choice.country ? undefined : () => onlyCountry(c.country)} />
                      </td>
                      <td className="py-1 text-right tabular-nums text-slate-700">{c.scans}</td>
                    </tr>
                  ))}
                  {data.unknownCountry > 0 && (
                    <tr>
                      <td className="py-1 text-slate-500">
                        <CountryName name="Unknown" onlyThis={choice.country ? undefined : () => onlyCountry('unknown')} />
                      </td>
                      <td className="py-1 text-right tabular-nums text-slate-500">{data.unknownCountry}</td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          )}
          <p className="text-[11px] text-slate-400">
            {data.attribution} Map shapes: Natural Earth (public domain).
          </p>
        </Panel>
      )}
      {data && !customIncomplete && (
        <Panel title="Regions and Cities" icon={<MapPin />}>
          {!data.citiesEnabled ? (
            <p className="text-sm text-slate-600">
              Scans are placed by country only. To see regions and cities, the server's administrator sets SQUARELY_GEOIP_CITY_DB to a city database
              (GeoLite2 City or DB-IP Lite City; the README says where to get one).
            </p>
          ) : (
            <div className="grid gap-5 md:grid-cols-2">
              <PlaceTable
                label="Scans by region"
                what="regions"
                csv={csv('region', 'regions')}
                rows={data.regions.map((p) => ({ key: `${p.country}|${p.region}`, name: `${p.region}, ${countryName(p.country)}`, scans: p.scans }))}
              />
              <PlaceTable
                label="Scans by city"
                what="cities"
                csv={csv('city', 'cities')}
                rows={data.cities.map((p) => ({
                  key: `${p.country}|${p.region}|${p.city}`,
                  name: [p.city, p.region, countryName(p.country)].filter(Boolean).join(', '),
                  scans: p.scans,
                }))}
              />
            </div>
          )}
        </Panel>
      )}
      {data && !customIncomplete && (
        <div className="grid gap-5 md:grid-cols-2 xl:grid-cols-3">
          <Panel title="Devices" action={csv('device', 'devices')}>
            <ShareBars entries={toEntries(data.devices)} empty="No scans yet" capitalize />
          </Panel>
          <Panel title="Operating Systems" action={csv('os', 'operating systems')}>
            <ShareBars entries={toEntries(data.os)} empty="No scans yet" />
          </Panel>
          <Panel title="Browsers" action={csv('browser', 'browsers')}>
            <ShareBars entries={toEntries(data.browsers)} empty="No scans yet" />
          </Panel>
          <Panel title="Top Referrers" action={csv('referrer', 'referrers')}>
            {data.referrers.length === 0 ? (
              <p className="py-6 text-center text-sm text-slate-500">No referrers yet: most scans come straight from a camera.</p>
            ) : (
              <ShareBars entries={data.referrers.map((r) => ({ label: r.referrer, value: r.count }))} />
            )}
          </Panel>
          <Panel title="Peak Hours" action={csv('hour', 'peak hours')}>
            <BarChart label="Scans by hour of day" unit="hour" bars={data.peakHours.map((n, h) => ({ key: String(h), label: `${String(h).padStart(2, '0')}:00`, value: n }))} />
          </Panel>
          <Panel title="Humans vs Bots">
            <SplitRing a={data.humanScans} b={data.botScans} labelA="Humans" labelB="Bots" />
          </Panel>
        </div>
      )}
    </div>
  )
}

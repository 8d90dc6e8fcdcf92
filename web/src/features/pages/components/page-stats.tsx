import { Alert } from '@/components/ui/alert'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { usePageAnalytics } from '../api/pages'

/** A page's analytics: views, visitors, saves, reveals, calendar adds and clicks per button (the last 30 days, or from–to). */
export function PageStats({ id, from, to }: { id: number; from?: string; to?: string }) {
  const a = usePageAnalytics(id, from, to)
  if (a.isPending) return <Spinner label="Loading analytics..." />
  if (a.isError) return <Alert variant="destructive">{serverMessage(a.error) ?? 'Failed to load the analytics.'}</Alert>
  const d = a.data
  return (
    <div className="grid gap-2 rounded-md bg-slate-50 p-3 text-sm" aria-label={from || to ? 'Page analytics' : 'Page analytics (last 30 days)'} role="region">
      {!from && !to && <p className="text-slate-600">Last 30 days</p>}
      <dl className="flex flex-wrap gap-x-6 gap-y-1">
        {(
          [
            ['Views', d.views],
            ['Unique visitors', d.uniqueVisitors],
            ['Contact saves', d.contactSaves],
            ['Code reveals', d.reveals],
            ['Calendar adds', d.calendarAdds],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <dt className="text-slate-600">{k}</dt>
            <dd className="font-semibold">{v}</dd>
          </div>
        ))}
      </dl>
      {d.clicks.length > 0 && (
        <table className="w-full text-left">
          <caption className="sr-only">Clicks per button</caption>
          <thead>
            <tr>
              <th scope="col">Button</th>
              <th scope="col">Clicks</th>
            </tr>
          </thead>
          <tbody>
            {d.clicks.map((c) => (
              <tr key={c.button}>
                <td>{c.label}</td>
                <td>{c.clicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <a href={`/api/pages/${id}/analytics?format=csv`} className="text-primary hover:underline">
        Download CSV
      </a>
    </div>
  )
}

import { Loader2, MonitorSmartphone } from 'lucide-react'
import { useEffect } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { useEndOtherSessions, useEndSession, useSessions, type Session } from '../api/sessions'
import { formatDateTime } from '@/lib/dates'

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null

/** "Chrome on Windows" from a User-Agent header, or the header itself when it names neither. */
const browsers: [string, RegExp][] = [
  ['Edge', /Edg\//],
  ['Opera', /OPR\//],
  ['Firefox', /Firefox\//],
  ['Chrome', /Chrom(e|ium)\//],
  ['Safari', /Safari\//],
]
const systems: [string, RegExp][] = [
  ['Android', /Android/],
  ['iOS', /iPhone|iPad/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
]

/** "Chrome on Windows" from a User-Agent header, or the header itself when it names neither. */
export function deviceName(userAgent: string): string {
  const browser = browsers.find(([, re]) => re.test(userAgent))?.[0]
  const os = systems.find(([, re]) => re.test(userAgent))?.[0]
  if (browser && os) return `${browser} on ${os}`
  return browser ?? os ?? (userAgent || 'Unknown device')
}

function place(s: Session): string {
  const country = s.location ? (regionNames?.of(s.location) ?? s.location) : 'Unknown location'
  return s.ip ? `${country} · ${s.ip}` : country
}

/** Account settings: every signed-in browser, each to end at once, or all but this one. */
export function SessionsCard() {
  const sessions = useSessions()
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const others = sessions.data?.filter((s) => !s.current).length ?? 0
  // The new-sign-in mail links to #sessions: show the list once it is there.
  useEffect(() => {
    if (sessions.data && window.location.hash === '#sessions') document.getElementById('sessions')?.scrollIntoView()
  }, [sessions.data])
  return (
    <Card id="sessions">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MonitorSmartphone className="size-5" aria-hidden="true" /> Sessions
        </CardTitle>
        <CardDescription>The browsers signed in to your account. End any you do not recognise, then change your password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isLoading ? (
          <Spinner />
        ) : (
          <ul aria-label="Sessions" className="divide-y divide-slate-100">
            {sessions.data?.map((s) => (
              <li key={s.id} className="flex items-center justify-between gap-3 py-2">
                <div className="min-w-0">
                  <p className="flex items-center gap-2 font-medium text-slate-900">
                    <span className="truncate" title={s.userAgent}>
                      {deviceName(s.userAgent)}
                    </span>
                    {s.current && <Badge tone="emerald">This device</Badge>}
                  </p>
                  <p className="text-xs text-slate-500">
                    {place(s)} · last active {formatDateTime(s.lastSeenAt)} · signed in {formatDateTime(s.createdAt)}
                  </p>
                </div>
                {!s.current && (
                  <Button type="button" variant="outline" size="sm" disabled={end.isPending} onClick={() => end.mutate(s.id)}>
                    End
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {others > 0 && (
          <Button type="button" variant="outline" className="justify-self-start" disabled={endOthers.isPending} onClick={() => endOthers.mutate()}>
            {endOthers.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Sign out of all other sessions
          </Button>
        )}
      </CardContent>
    </Card>
  )
}

import type { Mailing, MailingKind } from '../api/mailings'

const kindLabels: Record<MailingKind, string> = {
  newsletter: 'Newsletter',
  welcome: 'Welcome mailing',
  scans: 'Scan notifications',
  paused: 'Pause notifications',
}

/** The latest mailings with their progress: sent of recipients, and what did not go out. */
export function MailingList({ mailings }: { mailings: Mailing[] }) {
  if (mailings.length === 0) return <p className="text-sm text-slate-600">No mailings sent yet.</p>
  return (
    <ul className="divide-y divide-slate-200" aria-label="Recent mailings">
      {mailings.map((m) => (
        <MailingRow key={m.id} mailing={m} />
      ))}
    </ul>
  )
}

function MailingRow({ mailing: m }: { mailing: Mailing }) {
  const handled = m.totalUsers - m.pending
  const percent = m.totalUsers === 0 ? 100 : Math.round((handled / m.totalUsers) * 100)
  const label = `${kindLabels[m.kind]}${m.subject ? `: ${m.subject}` : ''}`
  const notes = [m.failed && `${m.failed} failed`, m.skipped && `${m.skipped} unsubscribed or deleted`, m.interrupted && `${m.interrupted} interrupted`].filter(Boolean)
  return (
    <li className="py-3" data-testid="mailing">
      <div className="flex items-baseline justify-between gap-4">
        <span className="truncate text-sm font-medium text-slate-900">{label}</span>
        <span className="shrink-0 text-sm text-slate-600">
          {m.status === 'done' ? 'Finished' : m.status === 'queued' ? 'Queued' : 'Sending'}: {m.successCount} of {m.totalUsers} sent
        </span>
      </div>
      <div
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={`${label} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
      </div>
      {notes.length > 0 && <p className="mt-1 text-xs text-slate-500">{notes.join(' · ')}</p>}
    </li>
  )
}

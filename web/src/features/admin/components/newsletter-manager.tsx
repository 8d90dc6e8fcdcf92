import { BarChart3, Loader2, Mail, PauseCircle, QrCode, ScanLine, Send, ShieldAlert, UserPlus, Users } from 'lucide-react'
import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { useMailings, useNewsletterStats, useQueueMailing, useSendTestEmail, type Mailing, type MailingKind } from '../api/mailings'
import { MailingList } from './mailing-list'
import { countOf } from '@/lib/count'

/** Spec 02 §9: the content area has 15 rows. */
export const CONTENT_ROWS = 15


/** What each mailing says when it starts, and when it fails without a server message. */
const outcomes: Record<MailingKind, { title: string; fallback: string }> = {
  newsletter: { title: 'Newsletter Sent!', fallback: 'Failed to send the newsletter.' },
  welcome: { title: 'Welcome E-mails Sent!', fallback: 'Failed to send the welcome e-mails.' },
  scans: { title: 'Scan Notifications Sent!', fallback: 'Failed to send the scan notifications.' },
  paused: { title: 'Pause Notifications Sent!', fallback: 'Failed to send the pause notifications.' },
}

/** The Newsletter Manager (spec 02 §2): stats, the newsletter form, the other mailings and their progress. */
export function NewsletterManager() {
  const stats = useNewsletterStats()
  const allowed = stats.isSuccess
  const mailings = useMailings(allowed)
  const queue = useQueueMailing()
  const testEmail = useSendTestEmail()
  const [subject, setSubject] = useState('')
  const [content, setContent] = useState('')
  const [includeStats, setIncludeStats] = useState(true)
  const ids = { subject: useId(), content: useId(), stats: useId() }

  if (stats.error) {
    const forbidden = stats.error instanceof ApiError && stats.error.status === 403
    return (
      <Alert variant="destructive">
        <ShieldAlert aria-hidden="true" />
        <div>
          <p className="font-semibold">{forbidden ? 'Admin access required' : 'The Newsletter Manager could not load'}</p>
          <p>{forbidden ? 'Only administrators can see the stats and send mailings.' : (serverMessage(stats.error) ?? 'Please try again later.')}</p>
        </div>
      </Alert>
    )
  }
  if (!stats.data) return <Spinner />

  const started = (kind: MailingKind) => (m: Mailing) =>
    toast({ title: outcomes[kind].title, description: `Sending to ${countOf(m.totalUsers, kind === 'newsletter' ? 'subscriber' : 'user')}; the progress shows below.` })
  const failed = (kind: MailingKind) => (error: unknown) =>
    toast({ title: 'Error', description: serverMessage(error) ?? outcomes[kind].fallback, variant: 'destructive' })

  const sendNewsletter = (event: FormEvent) => {
    event.preventDefault()
    if (!subject.trim() || !content.trim()) {
      toast({ title: 'Missing Information', description: 'Please provide both subject and content for the newsletter.', variant: 'destructive' })
      return
    }
    queue.mutate(
      { kind: 'newsletter', newsletter: { subject, content, includeStats } },
      {
        onSuccess: (m) => {
          started('newsletter')(m)
          setSubject('')
          setContent('')
        },
        onError: failed('newsletter'),
      },
    )
  }
  const send = (kind: Exclude<MailingKind, 'newsletter'>) => queue.mutate({ kind }, { onSuccess: started(kind), onError: failed(kind) })
  const mailOff = !stats.data.mailEnabled
  const busy = queue.isPending || mailOff

  return (
    <div className="space-y-8">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">Newsletter Manager</h2>
        <p className="mt-1 text-slate-600">Send newsletters and notifications to your users.</p>
      </div>

      {mailOff && (
        <Alert>
          <Mail aria-hidden="true" />
          <p>E-mail is off on this server, so mailings cannot be sent. Set SQUARELY_SMTP_URL and SQUARELY_MAIL_FROM to turn it on.</p>
        </Alert>
      )}

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat icon={<Users />} label="Total Users" value={stats.data.totalUsers} />
        <Stat icon={<UserPlus />} label="New Users (30 days)" value={stats.data.newUsers} />
        <Stat icon={<QrCode />} label="Total QR Codes" value={stats.data.totalQRCodes} />
        <Stat icon={<BarChart3 />} label="New QR Codes (30 days)" value={stats.data.newQRCodes} />
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Send Newsletter</CardTitle>
            <CardDescription>Goes to every newsletter subscriber who has not unsubscribed.</CardDescription>
          </CardHeader>
          <CardContent>
            <form className="space-y-4" onSubmit={sendNewsletter} noValidate>
              <div className="space-y-2">
                <Label htmlFor={ids.subject}>Subject</Label>
                <Input id={ids.subject} value={subject} maxLength={200} onChange={(e) => setSubject(e.target.value)} placeholder="This month at Squarely" />
              </div>
              <div className="space-y-2">
                <Label htmlFor={ids.content}>Content</Label>
                <Textarea
                  id={ids.content}
                  rows={CONTENT_ROWS}
                  value={content}
                  onChange={(e) => setContent(e.target.value)}
                  placeholder="Write the newsletter. A blank line starts a new paragraph."
                />
              </div>
              <div className="flex items-center gap-3">
                <Switch id={ids.stats} checked={includeStats} onCheckedChange={setIncludeStats} />
                <Label htmlFor={ids.stats}>Include platform stats</Label>
              </div>
              <Button type="submit" disabled={busy}>
                {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
                Send Newsletter
              </Button>
            </form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Notifications</CardTitle>
            <CardDescription>Each user is mailed once per send; unsubscribed and deleted accounts are skipped.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Button variant="outline" disabled={busy} onClick={() => send('welcome')}>
              <UserPlus aria-hidden="true" />
              Send Welcome to All Users
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => send('scans')}>
              <ScanLine aria-hidden="true" />
              Send Scan Notifications
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => send('paused')}>
              <PauseCircle aria-hidden="true" />
              Send Pause Notifications
            </Button>
            <Button
              variant="ghost"
              disabled={testEmail.isPending || mailOff}
              onClick={() =>
                testEmail.mutate(undefined, {
                  onSuccess: (r) => toast({ title: 'Test E-mail Sent!', description: r.message }),
                  onError: (error) => toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to send the test e-mail.', variant: 'destructive' }),
                })
              }
            >
              <Mail aria-hidden="true" />
              Send me a test e-mail
            </Button>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Recent Mailings</CardTitle>
        </CardHeader>
        <CardContent>{mailings.data ? <MailingList mailings={mailings.data.mailings} /> : <Spinner className="min-h-0" />}</CardContent>
      </Card>
    </div>
  )
}

function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <Card>
      <CardContent className="flex items-center gap-4 pt-6">
        <span className="rounded-lg bg-primary-50 p-2 text-primary [&_svg]:size-5" aria-hidden="true">
          {icon}
        </span>
        <div>
          <p className="text-sm text-slate-600">{label}</p>
          <p className="text-2xl font-bold text-slate-900">{value}</p>
        </div>
      </CardContent>
    </Card>
  )
}

// An SMTP server for the browser tests: the Squarely binary sends its mail
// here (SQUARELY_SMTP_URL), and tests read what arrived over HTTP:
// GET http://127.0.0.1:{mailboxPort}/messages?to=ADDRESS answers a JSON
// array of SinkMessage. SMTP is nodemailer's smtp-server, MIME its
// mailparser.
//
// global-setup.ts starts it once per run in the runner process; tests use
// mailTo / waitForMail below.
import { createServer as createHTTPServer, type Server as HTTPServer } from 'node:http'
import { simpleParser } from 'mailparser'
import { SMTPServer, type SMTPServerAddress } from 'smtp-server'

export type SinkMessage = {
  from: string
  to: string[]
  subject: string
  headers: Record<string, string> // lower-cased names, unfolded values as sent
  text: string // the decoded text/plain part
  html: string // the decoded text/html part
  attachments: { filename: string; contentType: string; size: number }[]
  raw: string
  receivedAt: string
}

// The sink's ports follow the app's port, so runs on different ports
// (one per engineer) never collide: app 18081 → SMTP 19081, mailbox 20081.
export function sinkPorts(appAddr: string) {
  const appPort = Number(appAddr.split(':').pop())
  return {
    smtp: Number(process.env.SQUARELY_E2E_SMTP_PORT ?? appPort + 1000),
    mailbox: Number(process.env.SQUARELY_E2E_MAILBOX_PORT ?? appPort + 2000),
  }
}

const maxMessageBytes = 2 << 20

export async function startSmtpSink(ports: { smtp: number; mailbox: number }) {
  const messages: SinkMessage[] = []
  // In the clear on loopback, without AUTH: what the binary sends is what
  // the tests read.
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: maxMessageBytes,
    banner: 'squarely-e2e-sink',
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message too big'), { responseCode: 552 }))
          return
        }
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then(
          (parsed) => {
            const headers: Record<string, string> = {}
            for (const { key, line } of parsed.headerLines) {
              headers[key.toLowerCase()] = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()
            }
            messages.push({
              from: envelopeAddress(session.envelope.mailFrom),
              to: session.envelope.rcptTo.map(envelopeAddress),
              subject: parsed.subject ?? '',
              headers,
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, size: a.size })),
              raw: raw.toString('utf8'),
              receivedAt: new Date().toISOString(),
            })
            callback()
          },
          (err: Error) => callback(err),
        )
      })
    },
  })
  const mailbox = createHTTPServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink')
    if (req.method !== 'GET' || url.pathname !== '/messages') {
      res.writeHead(404).end()
      return
    }
    const to = url.searchParams.get('to')?.toLowerCase()
    const found = to ? messages.filter((m) => m.to.some((r) => r.toLowerCase() === to)) : messages
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(found))
  })
  await listen((port, done) => smtp.listen(port, '127.0.0.1', done), smtp.server, ports.smtp)
  await listen((port, done) => mailbox.listen(port, '127.0.0.1', done), mailbox, ports.mailbox)
  return async () => {
    mailbox.closeAllConnections()
    await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), new Promise<void>((resolve) => mailbox.close(() => resolve()))])
  }
}

function envelopeAddress(a: SMTPServerAddress | false): string {
  return a ? a.address : ''
}

function listen(start: (port: number, done: () => void) => void, server: HTTPServer | SMTPServer['server'], port: number) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    start(port, () => resolve())
  })
}

// For tests: the messages received so far for an address.
export async function mailTo(address: string): Promise<SinkMessage[]> {
  const { mailbox } = sinkPorts(process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080')
  const res = await fetch(`http://127.0.0.1:${mailbox}/messages?to=${encodeURIComponent(address)}`)
  if (!res.ok) throw new Error(`SMTP sink answered ${res.status}`)
  return (await res.json()) as SinkMessage[]
}

// For tests: waits until a message to address matches (by default, any).
export async function waitForMail(
  address: string,
  match: (m: SinkMessage) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<SinkMessage> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await mailTo(address)).find(match)
    if (found) return found
    if (Date.now() > deadline) throw new Error(`no matching mail to ${address} within ${timeoutMs}ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

// A small SMTP server for the browser tests: the Squarely binary sends its
// mail here (SQUARELY_SMTP_URL), and tests read what arrived over HTTP:
// GET http://127.0.0.1:{mailboxPort}/messages?to=ADDRESS answers a JSON
// array of SinkMessage. Built on node's net and http modules only.
//
// global-setup.ts starts it once per run in the runner process; tests use
// mailTo / waitForMail below.
import { createServer as createHTTPServer, type Server as HTTPServer } from 'node:http'
import { createServer as createTCPServer, type Server as TCPServer, type Socket } from 'node:net'

export type SinkMessage = {
  from: string
  to: string[]
  subject: string
  headers: Record<string, string> // lower-cased names, unfolded values
  text: string // the decoded text/plain part
  html: string // the decoded text/html part
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
  const smtp = createTCPServer((socket) => serveSMTP(socket, (m) => messages.push(m)))
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
  await listen(smtp, ports.smtp)
  await listen(mailbox, ports.mailbox)
  return async () => {
    await Promise.all([close(smtp), close(mailbox)])
  }
}

function listen(server: TCPServer | HTTPServer, port: number) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
}

function close(server: TCPServer | HTTPServer) {
  if ('closeAllConnections' in server) server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
}

// serveSMTP speaks enough of RFC 5321 for one client: EHLO/HELO, MAIL,
// RCPT, DATA (with dot-unstuffing), RSET, NOOP and QUIT. No STARTTLS and
// no AUTH are offered, so the client sends in the clear on loopback.
function serveSMTP(socket: Socket, deliver: (m: SinkMessage) => void) {
  let buffer = ''
  let from = ''
  let to: string[] = []
  let data: string[] | null = null
  let dataBytes = 0
  const reply = (line: string) => socket.write(line + '\r\n')
  socket.setEncoding('latin1') // bytes in, bytes out: parts are decoded below
  socket.on('error', () => socket.destroy())
  reply('220 squarely-e2e-sink ESMTP')
  socket.on('data', (chunk: string) => {
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      if (data) {
        if (line === '.') {
          deliver(parseMessage(from, to, data.join('\r\n')))
          data = null
          from = ''
          to = []
          reply('250 2.0.0 Queued')
        } else if ((dataBytes += line.length + 2) > maxMessageBytes) {
          reply('552 5.3.4 Message too big')
          socket.end()
        } else {
          data.push(line.startsWith('.') ? line.slice(1) : line)
        }
        continue
      }
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === 'EHLO') reply('250-squarely-e2e-sink\r\n250-8BITMIME\r\n250 SIZE ' + maxMessageBytes)
      else if (verb === 'HELO') reply('250 squarely-e2e-sink')
      else if (verb === 'MAIL') {
        from = address(line)
        reply('250 2.1.0 OK')
      } else if (verb === 'RCPT') {
        to.push(address(line))
        reply('250 2.1.5 OK')
      } else if (verb === 'DATA') {
        if (!from || to.length === 0) {
          reply('503 5.5.1 MAIL and RCPT first')
          continue
        }
        data = []
        dataBytes = 0
        reply('354 End data with <CR><LF>.<CR><LF>')
      } else if (verb === 'RSET') {
        from = ''
        to = []
        reply('250 2.0.0 OK')
      } else if (verb === 'NOOP') reply('250 2.0.0 OK')
      else if (verb === 'QUIT') {
        reply('221 2.0.0 Bye')
        socket.end()
      } else reply('502 5.5.2 Command not implemented')
    }
  })
}

function address(line: string) {
  const m = /<([^>]*)>/.exec(line)
  return m ? m[1] : ''
}

function parseMessage(from: string, to: string[], raw: string): SinkMessage {
  const { headers, body } = splitHeaders(raw)
  const parts = { text: '', html: '' }
  collectParts(headers, body, parts)
  return {
    from,
    to,
    subject: decodeWords(headers['subject'] ?? ''),
    headers,
    ...parts,
    raw,
    receivedAt: new Date().toISOString(),
  }
}

function splitHeaders(raw: string) {
  const at = raw.indexOf('\r\n\r\n')
  const head = at < 0 ? raw : raw.slice(0, at)
  const body = at < 0 ? '' : raw.slice(at + 4)
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { headers, body }
}

function collectParts(headers: Record<string, string>, body: string, out: { text: string; html: string }) {
  const type = headers['content-type'] ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split('--' + boundary).slice(1)) {
      if (part.startsWith('--')) break
      const inner = splitHeaders(part.replace(/^\r\n/, ''))
      collectParts(inner.headers, inner.body, out)
    }
    return
  }
  const text = decodeBody(body, headers['content-transfer-encoding'] ?? '')
  if (type.toLowerCase().startsWith('text/html')) out.html = text
  else if (type.toLowerCase().startsWith('text/plain')) out.text = text
}

function decodeBody(body: string, encoding: string) {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable':
      return utf8(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))))
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    default:
      return utf8(body)
  }
}

// utf8 reads a latin1 string (one char per byte) as UTF-8.
function utf8(bytes: string) {
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

// decodeWords decodes RFC 2047 encoded words (=?UTF-8?q?…?= and ?b?).
function decodeWords(value: string) {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([qQbB])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : utf8(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16)))),
    )
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

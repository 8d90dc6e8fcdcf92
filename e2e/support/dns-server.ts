// A DNS server for the browser tests: the Squarely binary asks it for the
// TXT records that verify workspace domains and the A records that point
// them here (SQUARELY_DOMAIN_RESOLVER), and tests publish records over
// HTTP: POST http://127.0.0.1:{port}/txt or /a {"name", "value"}. It speaks
// real DNS over UDP (RFC 1035), answering TXT and A queries for published
// names and NXDOMAIN for every other name.
//
// global-setup.ts starts it once per run in the runner process; tests use
// publishTXT below.
import { createSocket } from 'node:dgram'
import { createServer } from 'node:http'

// UDP and HTTP share one port number, which follows the app's port like
// the SMTP sink's: app 18081 → 21081.
export function dnsPort(appAddr: string) {
  return Number(process.env.SQUARELY_E2E_DNS_PORT ?? Number(appAddr.split(':').pop()) + 3000)
}

const typeA = 1
const typeTXT = 16

/** The question's end (after QTYPE and QCLASS), its lower-cased name and its type; undefined when malformed. */
function question(query: Buffer): { end: number; name: string; type: number } | undefined {
  const labels: string[] = []
  let at = 12
  while (at < query.length) {
    const len = query[at]
    if (len === 0) break
    if (len > 63) return undefined // no compression in a question we accept
    labels.push(query.subarray(at + 1, at + 1 + len).toString('latin1'))
    at += 1 + len
  }
  if (at + 5 > query.length) return undefined
  return { end: at + 5, name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1) }
}

function answer(query: Buffer, records: Map<string, string>, addresses: Map<string, string>): Buffer | undefined {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return undefined
  const q = question(query)
  if (!q) return undefined
  const value = records.get(q.name)
  const address = addresses.get(q.name)
  const found = value !== undefined || address !== undefined
  const header = Buffer.alloc(12)
  header.writeUInt16BE(query.readUInt16BE(0), 0)
  // QR, AA, RD as asked; NXDOMAIN for unknown names.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (found ? 0 : 3), 2)
  header.writeUInt16BE(1, 4)
  const parts = [header, query.subarray(12, q.end)]
  if (address !== undefined && q.type === typeA) {
    header.writeUInt16BE(1, 6)
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0)
    rr.writeUInt16BE(typeA, 2)
    rr.writeUInt16BE(1, 4)
    rr.writeUInt32BE(1, 6)
    rr.writeUInt16BE(4, 10)
    parts.push(rr, Buffer.from(address.split('.').map(Number)))
  }
  if (value !== undefined && q.type === typeTXT) {
    header.writeUInt16BE(1, 6)
    const text = Buffer.from(value, 'utf8')
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0) // the question's name
    rr.writeUInt16BE(typeTXT, 2)
    rr.writeUInt16BE(1, 4) // IN
    rr.writeUInt32BE(1, 6) // TTL
    rr.writeUInt16BE(text.length + 1, 10)
    parts.push(rr, Buffer.from([text.length]), text)
  }
  return Buffer.concat(parts)
}

export async function startDNSServer(port: number) {
  const records = new Map<string, string>()
  const addresses = new Map<string, string>()
  const udp = createSocket('udp4')
  udp.on('message', (msg, from) => {
    const out = answer(msg, records, addresses)
    if (out) udp.send(out, from.port, from.address)
  })
  const control = createServer((req, res) => {
    if (req.method !== 'POST' || (req.url !== '/txt' && req.url !== '/a')) {
      res.writeHead(404).end()
      return
    }
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      const { name, value } = JSON.parse(body) as { name: string; value: string }
      ;(req.url === '/a' ? addresses : records).set(name.toLowerCase().replace(/\.$/, ''), value)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve))
  await new Promise<void>((resolve) => control.listen(port, '127.0.0.1', resolve))
  return async () => {
    udp.close()
    await new Promise((resolve) => control.close(resolve))
  }
}

async function publish(kind: 'txt' | 'a', name: string, value: string) {
  const port = dnsPort(process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080')
  const res = await fetch(`http://127.0.0.1:${port}/${kind}`, { method: 'POST', body: JSON.stringify({ name, value }) })
  if (res.status !== 204) throw new Error(`publishing ${name}: ${res.status}`)
}

/** Publishes a TXT record on the run's DNS server. */
export const publishTXT = (name: string, value: string) => publish('txt', name, value)

/** Publishes an A record (an IPv4 address) on the run's DNS server. */
export const publishA = (name: string, address: string) => publish('a', name, address)

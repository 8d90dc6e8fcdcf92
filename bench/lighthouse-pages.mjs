// node bench/lighthouse-pages.mjs [--runs N] [http://127.0.0.1:PORT] (make
// bench-lighthouse-pages installs its packages and builds first): Lighthouse
// 12's mobile audit, performance and accessibility, of hosted pages
// (/p/{slug}): a business page with its logo and a gallery, whose images are
// uploaded as a workspace's (re-encoded, served with srcset). Starts
// bin/squarely as lighthouse.mjs does unless given a running one, signs up
// an account through the API, and exits non-zero when a median score of
// either category is below 100.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { root, squarely } from './server.mjs'

const args = process.argv.slice(2)
let runs = 3
const runsAt = args.indexOf('--runs')
if (runsAt >= 0) runs = Number(args.splice(runsAt, 2)[1])
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1')

const server = await squarely(args[0])
let cookie = ''
async function api(method, path, body) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { cookie, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : JSON.stringify(body),
  })
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0])
  if (set.length) cookie = set.join('; ')
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const missed = []
let chrome
try {
  const email = `lighthouse-${Date.now()}@example.com`
  await api('POST', '/api/register', { email, password: 'lighthouse-bench-1', firstName: 'Light', lastName: 'House' })
  const form = new FormData()
  form.set('imageFile', new Blob([readFileSync(join(root, 'internal/render/testdata/logo.webp'))], { type: 'image/webp' }), 'logo.webp')
  const { imageUrl } = await api('POST', '/api/upload-image', form)
  const pages = [
    {
      type: 'business',
      title: 'Café Lumière',
      content: {
        name: 'Café Lumière',
        logoUrl: imageUrl,
        about: 'Coffee, cake and lunch by the river.',
        timeZone: 'Europe/Paris',
        hours: { mon: [{ open: '08:00', close: '12:00' }, { open: '14:00', close: '18:00' }], sat: [{ open: '09:00', close: '17:00' }] },
        address: { street: '1 Quai de la Seine', city: 'Paris', postalCode: '75019', country: 'France' },
        phone: '+33 1 23 45 67 89',
        website: 'https://cafe.example.com',
        links: [{ label: 'Order ahead', url: 'https://order.example.com' }],
      },
    },
    {
      type: 'gallery',
      title: 'Our work',
      content: { title: 'Our work', description: 'A few things we made.', images: [1, 2, 3, 4].map((n) => ({ url: imageUrl, caption: `Piece ${n}`, alt: `Logo study ${n}` })) },
    },
  ]
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  console.log('| page | performance | accessibility | LCP s | CLS | bytes |')
  console.log('|---|---|---|---|---|---|')
  for (const p of pages) {
    const { url } = await api('POST', '/api/pages', p)
    const seen = []
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance', 'accessibility'], logLevel: 'error' })
      if (lhr.runtimeError) throw new Error(`${p.type}: ${lhr.runtimeError.message}`)
      const run = {
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        lcp: lhr.audits['largest-contentful-paint'].numericValue,
        cls: lhr.audits['cumulative-layout-shift'].numericValue,
        bytes: lhr.audits['total-byte-weight'].numericValue,
      }
      seen.push(run)
      // What cost points: the audits of either category below full marks.
      const failed = [...lhr.categories.performance.auditRefs, ...lhr.categories.accessibility.auditRefs]
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
        .map((a) => `${a.id} ${a.score}${a.displayValue ? ` (${a.displayValue})` : ''}`)
      console.error(`${p.type} run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility}${failed.length ? `, failed: ${failed.join(', ')}` : ''}`)
    }
    const m = Object.fromEntries(Object.keys(seen[0]).map((k) => [k, median(seen.map((r) => r[k]))]))
    console.log(`| ${p.type} | ${m.performance} | ${m.accessibility} | ${(m.lcp / 1000).toFixed(1)} | ${m.cls.toFixed(3)} | ${Math.round(m.bytes)} |`)
    if (m.performance < 100) missed.push(`${p.type}: performance ${m.performance} < 100`)
    if (m.accessibility < 100) missed.push(`${p.type}: accessibility ${m.accessibility} < 100`)
  }
} finally {
  await chrome?.kill()
  server.stop()
}
if (missed.length) {
  console.error(`missed:\n  ${missed.join('\n  ')}`)
  process.exit(1)
}

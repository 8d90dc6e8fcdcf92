// node bench/lighthouse.mjs [--runs N] [http://127.0.0.1:PORT] (make
// bench-lighthouse installs its packages and builds first): Lighthouse 12's
// mobile performance audit, with its default simulated throttling (a slow
// 4G line, a CPU four times slower), of /, /templates, /faq, /blog and the
// first blog post of the sitemap (issue 21). Starts bin/squarely on a free
// port over a temporary data directory unless given the address of a
// running one; runs each page N times (default 3) in Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium), prints each run and a markdown
// table of the medians for BENCHMARKS.md, and exits non-zero when a median
// misses a target: performance >= 90, cumulative layout shift < 0.05, total
// blocking time < 200 ms. TBT is the CPU's time: on a busy machine it
// grows, so measure on a quiet one (or nice -n -5).
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { publicPaths, squarely } from './server.mjs'

const args = process.argv.slice(2)
let runs = 3
const runsAt = args.indexOf('--runs')
if (runsAt >= 0) runs = Number(args.splice(runsAt, 2)[1])
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1')

const targets = { performance: 90, cls: 0.05, tbt: 200 }
const server = await squarely(args[0])
const post = (await publicPaths(server.base)).find((p) => p.startsWith('/blog/'))
const paths = ['/', '/templates', '/faq', '/blog', post]

// The flags of the e2e suite's Chromium (e2e/playwright.config.ts), headless.
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const rows = []
const missed = []
try {
  for (const path of paths) {
    const seen = []
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(`${server.base}${path}`, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error' })
      if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`)
      const audit = (id) => lhr.audits[id].numericValue
      const run = {
        performance: Math.round(lhr.categories.performance.score * 100),
        cls: audit('cumulative-layout-shift'),
        tbt: audit('total-blocking-time'),
        lcp: audit('largest-contentful-paint'),
        fcp: audit('first-contentful-paint'),
        si: audit('speed-index'),
      }
      seen.push(run)
      console.error(`${path} run ${i + 1}: performance ${run.performance}, CLS ${run.cls.toFixed(3)}, TBT ${Math.round(run.tbt)} ms, LCP ${Math.round(run.lcp)} ms`)
    }
    const m = Object.fromEntries(Object.keys(seen[0]).map((k) => [k, median(seen.map((r) => r[k]))]))
    rows.push({ path, ...m })
    if (m.performance < targets.performance) missed.push(`${path}: performance ${m.performance} < ${targets.performance}`)
    if (m.cls >= targets.cls) missed.push(`${path}: CLS ${m.cls.toFixed(3)} >= ${targets.cls}`)
    if (m.tbt >= targets.tbt) missed.push(`${path}: TBT ${Math.round(m.tbt)} ms >= ${targets.tbt} ms`)
  }
} finally {
  await chrome.kill()
  server.stop()
}

const s = (ms) => (ms / 1000).toFixed(1)
console.log(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile, simulated throttling; medians of ${runs} runs`)
console.log('')
console.log('| page | performance | CLS | TBT ms | LCP s | FCP s | Speed Index s |')
console.log('|---|---|---|---|---|---|---|')
for (const r of rows) {
  console.log(`| ${r.path} | ${r.performance} | ${r.cls.toFixed(3)} | ${Math.round(r.tbt)} | ${s(r.lcp)} | ${s(r.fcp)} | ${s(r.si)} |`)
}
if (missed.length) {
  console.error(`missed:\n  ${missed.join('\n  ')}`)
  process.exit(1)
}

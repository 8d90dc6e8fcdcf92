// node bench/page-weight.mjs [http://127.0.0.1:PORT]: what each public page
// costs a phone (issues 13, 21). Starts bin/squarely (make build first) on a
// free port and a temporary data directory unless given the address of a
// running one, opens every route of /sitemap.xml in Chromium with a phone's
// viewport, and sums the JavaScript it loaded (and for / also after
// scrolling to the generator) as sent plain, with gzip and with brotli,
// fetched again with each Accept-Encoding. Prints a markdown table for
// BENCHMARKS.md, and exits non-zero when a page's brotli JavaScript is over
// its budget (server.mjs: 150 KB for / with the generator, 90 KB for the rest).
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { budgets, publicPaths, root, squarely } from './server.mjs'

const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test')
const server = await squarely(process.argv[2])
const base = server.base

/** Body length of GET url with Accept-Encoding accept, as sent (not decoded). */
function sentBytes(url, accept) {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': accept } }, (res) => {
      let n = 0
      res.on('data', (c) => (n += c.length))
      res.on('end', () => resolve(n))
    })
      .on('error', reject)
      .end()
  })
}

async function weigh(urls) {
  const sum = { files: urls.length, plain: 0, gzip: 0, br: 0 }
  for (const url of urls) {
    sum.plain += await sentBytes(url, 'identity')
    sum.gzip += await sentBytes(url, 'gzip')
    sum.br += await sentBytes(url, 'br')
  }
  return sum
}

const paths = await publicPaths(base)

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
const kb = (n) => (n / 1024).toFixed(1)
console.log('| route | HTML plain / gzip KB | JS files | JS plain KB | JS gzip KB | JS brotli KB | budget KB |')
console.log('|---|---|---|---|---|---|---|')
const over = []
async function row(label, path, scroll, budget) {
  // A fresh context per page: a first visit, with nothing cached.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  const scripts = new Set()
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.add(res.url())
  })
  await page.goto(base + path, { waitUntil: 'networkidle' })
  if (scroll) {
    await page.locator('#qr-generator').scrollIntoViewIfNeeded()
    await page.getByRole('heading', { name: 'Generate Your QR Code' }).waitFor()
    await page.waitForLoadState('networkidle')
  }
  await context.close()
  const js = await weigh([...scripts])
  const html = { plain: await sentBytes(base + path, 'identity'), gzip: await sentBytes(base + path, 'gzip') }
  const within = js.br <= budget
  if (!within) over.push(`${label}: ${kb(js.br)} KB of brotli JavaScript, budget ${kb(budget)} KB`)
  console.log(`| ${label} | ${kb(html.plain)} / ${kb(html.gzip)} | ${js.files} | ${kb(js.plain)} | ${kb(js.gzip)} | ${kb(js.br)} | ${kb(budget)}${within ? '' : ' **over**'} |`)
}
for (const path of paths) await row(path, path, false, path === '/' ? budgets.landing : budgets.other)
await row('/ after scrolling to the generator', '/', true, budgets.landing)
await browser.close()
server.stop()
if (over.length) {
  console.error(`over budget:\n  ${over.join('\n  ')}`)
  process.exit(1)
}

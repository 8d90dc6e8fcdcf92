// node bench/page-weight.mjs [http://127.0.0.1:PORT]: what each public page
// costs a phone (issue 13). Starts bin/squarely (make build first) on a
// temporary data directory unless given the address of a running one, opens
// every route of /sitemap.xml in Chromium with a phone's viewport, and sums
// the JavaScript it loaded (and for / also after scrolling to the
// generator) as sent plain, with gzip and with brotli, fetched again with
// each Accept-Encoding. Prints a markdown table for BENCHMARKS.md.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test')

let base = process.argv[2]
let server
const dataDir = mkdtempSync(join(tmpdir(), 'squarely-weight-'))
if (!base) {
  const addr = '127.0.0.1:18187'
  base = `http://${addr}`
  server = spawn(join(root, 'bin', 'squarely'), [], {
    env: { ...process.env, SQUARELY_ADDR: addr, SQUARELY_DATA_DIR: dataDir, SQUARELY_BASE_URL: base },
    stdio: 'ignore',
  })
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/`)
      break
    } catch (err) {
      if (i > 100) throw err
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

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

const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
const kb = (n) => (n / 1024).toFixed(1)
console.log('| route | HTML plain / gzip KB | JS files | JS plain KB | JS gzip KB | JS brotli KB |')
console.log('|---|---|---|---|---|---|')
async function row(label, path, scroll) {
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
  console.log(`| ${label} | ${kb(html.plain)} / ${kb(html.gzip)} | ${js.files} | ${kb(js.plain)} | ${kb(js.gzip)} | ${kb(js.br)} |`)
}
for (const path of paths) await row(path, path, false)
await row('/ after scrolling to the generator', '/', true)
await browser.close()
server?.kill()
rmSync(dataDir, { recursive: true, force: true })

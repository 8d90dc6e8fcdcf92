import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 24: a code whose destination starts answering 404 shows
// "Destination unreachable" on its card after two checks, and loses it
// when the page answers again. The checks run every second here, which
// would mark every other spec's example.com codes down (no DNS on the
// test machines), so this spec runs a server of its own, on the port after
// the shared one, with SQUARELY_LINK_CHECK_INTERVAL=1s and private
// addresses allowed (the destination is on 127.0.0.1).

const shared = process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'
const [host, port] = shared.split(':')
const addr = `${host}:${Number(port) + 1}`
const base = `http://${addr}`

let squarely: ChildProcess
let dataDir: string
let site: Server
let siteStatus = 404
let siteURL: string

test.beforeAll(async () => {
  site = createServer((_, res) => {
    res.writeHead(siteStatus, { 'Content-Type': 'text/plain' })
    res.end(siteStatus === 200 ? 'menu' : 'gone')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteURL = `http://127.0.0.1:${(site.address() as AddressInfo).port}/menu`

  dataDir = mkdtempSync(join(tmpdir(), 'squarely-e2e-alerts-'))
  squarely = spawn(process.env.SQUARELY_E2E_BIN ?? '../bin/squarely', [], {
    env: {
      PATH: process.env.PATH,
      SQUARELY_ADDR: addr,
      SQUARELY_DATA_DIR: dataDir,
      SQUARELY_BASE_URL: base,
      SQUARELY_LINK_CHECK_INTERVAL: '1s',
      SQUARELY_WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: 'ignore',
  })
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) break
    } catch {
      if (i > 150) throw new Error(`the alerts server did not start on ${addr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
})

test.afterAll(async () => {
  squarely?.kill('SIGTERM')
  await new Promise((resolve) => squarely?.once('exit', resolve))
  await new Promise((resolve) => site?.close(resolve))
  rmSync(dataDir, { recursive: true, force: true })
})

test('a destination answering 404 shows the badge with its reason, mutes, and recovers', async ({ page }) => {
  await signUp(page, uniqueEmail('alerts'), base)
  const created = await page.request.post(`${base}/api/dynamic-qrcodes`, {
    multipart: { qrType: 'url', destination: siteURL, qrData: JSON.stringify({ url: siteURL }), name: 'Window sticker' },
  })
  expect(created.status()).toBe(201)

  await page.goto(`${base}/dashboard`)
  const card = page.getByTestId('qr-card').filter({ hasText: 'Window sticker' })
  const badge = card.getByTestId('health-badge')
  // Two failed checks, a second apart; the dashboard shows what it loaded.
  await expect(async () => {
    await page.reload()
    await expect(badge).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 30_000 })
  await expect(badge).toHaveText('Destination unreachable')
  await expect(card.getByTestId('health-reason')).toContainText(/HTTP 404 since/)

  const bell = card.getByRole('button', { name: 'Mute alerts' })
  await expect(bell).toHaveAttribute('aria-pressed', 'false')
  await bell.click()
  await expect(page.getByText('Alerts muted', { exact: true })).toBeVisible()
  await expect(bell).toHaveAttribute('aria-pressed', 'true')
  // Muted codes are still checked: the badge goes once the page answers.
  siteStatus = 200
  await expect(async () => {
    await page.reload()
    await expect(card).toBeVisible({ timeout: 1000 })
    await expect(badge).toHaveCount(0, { timeout: 1000 })
  }).toPass({ timeout: 30_000 })
  await expect(card.getByTestId('health-reason')).toHaveCount(0)
})

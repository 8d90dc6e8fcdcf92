import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { dnsPort } from './support/dns-server'
import { sinkPorts } from './support/smtp-sink'

// The tests drive the real binary (built by `make build`) over a database
// that starts empty on every run.
// SQUARELY_E2E_ADDR and SQUARELY_E2E_BIN let several runs share a machine.
const addr = process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'
const baseURL = `http://${addr}`
// The app mails through the SMTP sink (support/smtp-sink.ts) that
// globalSetup starts; tests read the mail with waitForMail.
process.env.SQUARELY_E2E_ADDR = addr
const smtpPort = sinkPorts(addr).smtp

// Playwright evaluates this file again in every worker; the environment
// carries the first process's directory to them, so only that one makes it
// and only that one removes it at exit.
function freshDataDir() {
  const inherited = process.env.SQUARELY_E2E_DATA_DIR
  if (inherited) return inherited
  const dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-'))
  process.env.SQUARELY_E2E_DATA_DIR = dir
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const dataDir = freshDataDir()

// Payments run against stripe-mock, Stripe's API simulator (.ci/run installs
// it); the browser's Stripe.js is a stand-in served by each test (page.route).
const stripeAddr = process.env.SQUARELY_E2E_STRIPE_ADDR ?? '127.0.0.1:12111'

export default defineConfig({
  testDir: './tests',
  forbidOnly: true,
  retries: 0,
  // Two browsers share the one server: every spec signs up accounts of its
  // own, so specs run side by side (the suite passed so on a loaded
  // two-core machine), which keeps CI under its 30 minutes.
  // SQUARELY_E2E_WORKERS=1 runs them one at a time. The longest files
  // (ux-audit, a11y, generator, speed, …) also share their own tests out
  // (mode 'parallel'), so the run does not end on one worker alone.
  workers: Number(process.env.SQUARELY_E2E_WORKERS ?? 2),
  // A loaded two-core CI machine answers some steps in more than the
  // default 5 s (three tests failed so in one run and passed alone), and
  // once a sign-up's first page in more than 15 s (a run of 14.8 min,
  // against 9 min on a quiet machine; the journey passes in 4 s alone).
  // A test's own time grows to match; a slow step is the benchmarks' to
  // measure, not these journeys'.
  expect: { timeout: 25_000 },
  timeout: 60_000,
  reporter: 'list',
  globalSetup: './support/global-setup.ts',
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'off',
    // Debian's Chromium: the project never downloads browser builds.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      // Its HTTPS listener would take a fixed port; a free one keeps parallel runs apart.
      command: `${process.env.STRIPE_MOCK_BIN ?? 'stripe-mock'} -http-addr ${stripeAddr} -https-addr 127.0.0.1:`,
      url: `http://${stripeAddr}/v1/charges`, // 401 without a key: up
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: process.env.SQUARELY_E2E_BIN ?? '../bin/squarely',
      url: `${baseURL}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        SQUARELY_ADDR: addr,
        SQUARELY_DATA_DIR: dataDir,
        SQUARELY_BASE_URL: baseURL,
        SQUARELY_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SQUARELY_MAIL_FROM: 'Squarely <hello@squarely.test>',
        SQUARELY_SMTP_RATE: '100',
        // Every test signs up accounts of its own, all from 127.0.0.1: more
        // than the 30 an hour an address may register. The limit itself is
        // tested in Go (internal/server).
        SQUARELY_REGISTER_RATE_LIMIT: '1000',
        SQUARELY_STRIPE_SECRET_KEY: 'sk_test_e2e',
        SQUARELY_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
        SQUARELY_STRIPE_PRICING_TABLE_ID: 'prctbl_e2e',
        SQUARELY_STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
        SQUARELY_STRIPE_API_URL: `http://${stripeAddr}`,
        // The analytics spec scans through a "proxy" that names the client's address.
        SQUARELY_TRUST_PROXY: 'true',
        // Domain verification asks the run's DNS server (support/dns-server.ts).
        SQUARELY_DOMAIN_RESOLVER: `127.0.0.1:${dnsPort(addr)}`,
        // A domain the domains spec points at 127.0.0.1 reaches this very
        // server: its pointing check fetches on the app's port, from a
        // private address (both refused in production; tested in Go).
        SQUARELY_DOMAIN_HTTP_PORT: addr.split(':').pop() ?? '18080',
        SQUARELY_DOMAIN_ALLOW_PRIVATE: 'true',
        // The webhooks spec's receiver is a plain-HTTP server on 127.0.0.1,
        // which production refuses; the refusals are tested in Go.
        SQUARELY_WEBHOOK_ALLOW_HTTP: 'true',
        SQUARELY_WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    },
  ],
})

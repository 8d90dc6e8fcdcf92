// Shared by the browser benchmarks (page-weight.mjs, lighthouse.mjs): the
// server to measure, and the budgets of the public pages on a phone.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Brotli JavaScript a phone may load (issue 21): / with its generator, and every other public page. */
export const budgets = { landing: 150 * 1024, other: 90 * 1024 }

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/**
 * The server at base, or bin/squarely (make build first) started on a free
 * port over a temporary data directory. stop() ends what was started.
 */
export async function squarely(base) {
  if (base) return { base, stop() {} }
  const dataDir = mkdtempSync(join(tmpdir(), 'squarely-bench-'))
  const addr = `127.0.0.1:${await freePort()}`
  base = `http://${addr}`
  const server = spawn(join(root, 'bin', 'squarely'), [], {
    env: { ...process.env, SQUARELY_ADDR: addr, SQUARELY_DATA_DIR: dataDir, SQUARELY_BASE_URL: base },
    stdio: 'ignore',
  })
  const stop = () => {
    server.kill()
    rmSync(dataDir, { recursive: true, force: true })
  }
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/`)
      return { base, stop }
    } catch (err) {
      if (i > 100) {
        stop()
        throw err
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

/** The paths of the server's sitemap: every public page. */
export async function publicPaths(base) {
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
  return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
}

import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { publishTXT } from '../support/dns-server'

// Issue 33: a team signs in through its own identity provider (SAML) from
// the sign-in page's "Sign in with SSO", and a closed instance's sign-up
// page says it takes no accounts. The IdP is crewjam/saml's, run from
// support/samlidp; the closed instance is a server of this spec's own, on
// the port two after the shared one (alerts.spec.ts takes the next).

test.describe.configure({ timeout: 120_000 })
expect.configure({ timeout: 20_000 })

const shared = process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'
const [host, port] = shared.split(':')
const closedAddr = `${host}:${Number(port) + 2}`
const closedBase = `http://${closedAddr}`

let dir: string
let idp: ChildProcess
let idpURL: string

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'squarely-e2e-sso-'))
  execFileSync('go', ['build', '-o', join(dir, 'samlidp'), './support/samlidp'], { stdio: 'inherit' })
  idp = spawn(join(dir, 'samlidp'), [], { stdio: ['ignore', 'pipe', 'inherit'] })
  idpURL = await new Promise<string>((resolve, reject) => {
    idp.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0].trim()))
    idp.once('exit', (code) => reject(new Error(`the test IdP exited (${code})`)))
  })
})

test.afterAll(async () => {
  idp?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

test('a member signs in through the workspace’s identity provider and lands in it with the role of their group', async ({ page, browser }) => {
  // The owner: a team workspace with a verified domain, and its IdP set up on Members.
  await signUp(page, uniqueEmail('sso-owner'))
  const made = await page.request.post('/api/workspaces', { data: { name: 'Acme Staff' } })
  expect(made.status()).toBe(201)
  const ws = (await made.json()) as { id: number }
  expect((await page.request.post(`/api/workspaces/${ws.id}/activate`)).status()).toBe(200)
  const domain = `sso${Date.now()}.acme.example`
  const added = await page.request.post('/api/domains', { data: { domain } })
  expect(added.status()).toBe(201)
  const d = (await added.json()) as { id: number; txtName: string; txtValue: string }
  await publishTXT(d.txtName, d.txtValue)
  expect((await page.request.post(`/api/domains/${d.id}/verify`)).status()).toBe(200)

  const metadata = await (await page.request.get(`${idpURL}/metadata`)).text()
  await page.goto('/workspace/members')
  await page.getByRole('navigation', { name: 'Members sections' }).getByRole('link', { name: 'Security' }).click()
  const card = page.getByRole('form', { name: 'Single sign-on settings' })
  await card.getByLabel('Metadata XML').fill(metadata)
  await card.getByRole('button', { name: 'Map a group' }).click()
  await card.getByLabel('Group 1', { exact: true }).fill('qr-editors')
  await card.getByLabel('Role for group 1', { exact: true }).selectOption('editor')
  await card.getByRole('button', { name: 'Save single sign-on' }).click()
  await expect(page.getByText(`${idpURL}/metadata`)).toBeVisible()

  // A member, in a browser of their own, from the sign-in page.
  const context = await browser.newContext()
  const member = await context.newPage()
  await member.goto('/auth')
  await member.getByRole('button', { name: 'Sign in with SSO' }).click()
  await member.getByLabel('Work e-mail').fill(`nobody@elsewhere.example`)
  await member.getByRole('button', { name: 'Continue with SSO' }).click()
  await expect(member.getByText('No workspace signs in elsewhere.example addresses through single sign-on')).toBeVisible()
  const email = `ida@${domain}`
  await member.getByLabel('Work e-mail').fill(email)
  await member.getByRole('button', { name: 'Continue with SSO' }).click()

  // The IdP's own page, then its signed response posted back.
  await expect(member.getByRole('heading', { name: 'Test IdP' })).toBeVisible()
  await member.getByLabel('E-mail').fill(email)
  await member.getByLabel('Groups').fill('everyone, qr-editors')
  await member.getByRole('button', { name: 'Sign in to the IdP' }).click()
  await member.waitForURL((url) => url.origin === new URL(page.url()).origin && !url.pathname.startsWith('/auth'))

  const me = (await (await member.request.get('/api/user')).json()) as { username: string; workspace: { id: number; role: string } }
  expect(me.username).toBe(email)
  expect(me.workspace.id).toBe(ws.id)
  expect(me.workspace.role).toBe('editor')
  await member.goto('/dashboard')
  // The header's switcher (the side menu's shows the same workspace on a wide screen).
  await expect(member.getByRole('banner').getByRole('button', { name: /Workspace: Acme Staff/ })).toBeVisible()
  await context.close()
})

test.describe('a closed instance', () => {
  let squarely: ChildProcess
  let closedDir: string

  test.beforeAll(async () => {
    closedDir = mkdtempSync(join(tmpdir(), 'squarely-e2e-closed-'))
    squarely = spawn(process.env.SQUARELY_E2E_BIN ?? '../bin/squarely', [], {
      env: { PATH: process.env.PATH, SQUARELY_ADDR: closedAddr, SQUARELY_DATA_DIR: closedDir, SQUARELY_BASE_URL: closedBase, SQUARELY_SIGNUP: 'closed' },
      stdio: 'ignore',
    })
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${closedBase}/`)).ok) break
      } catch {
        if (i > 150) throw new Error(`the closed server did not start on ${closedAddr}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })

  test.afterAll(async () => {
    squarely?.kill('SIGTERM')
    await new Promise((resolve) => squarely?.once('exit', resolve))
    rmSync(closedDir, { recursive: true, force: true })
  })

  test('shows its notice instead of the sign-up form, and the server refuses a registration', async ({ page }) => {
    await page.goto(`${closedBase}/auth?mode=register`)
    await expect(page.getByText('This instance does not take new accounts. Ask its administrator for one.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Create Account' })).toHaveCount(0)
    const email = uniqueEmail('closed')
    const res = await page.request.post(`${closedBase}/api/register`, {
      data: { username: email, firstName: '', lastName: '', email, password: 'e2e-secret-1', confirmPassword: 'e2e-secret-1' },
    })
    expect(res.status()).toBe(403)
    expect(((await res.json()) as { code: string }).code).toBe('signup_closed')
  })
})

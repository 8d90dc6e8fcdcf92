import { createHmac } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { confirmEmail, password, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

/** The current RFC 6238 time step (30 s). */
const currentStep = () => Math.floor(Date.now() / 1000 / 30)

/** RFC 6238 TOTP (HMAC-SHA-1, 30 s, 6 digits) of a base32 secret at time step `step` (now, by default). */
function totp(secret: string, step = currentStep()): string {
  let bits = ''
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) {
    bits += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(ch).toString(2).padStart(5, '0')
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac('sha1', key).update(counter).digest()
  const at = mac[mac.length - 1] & 0x0f
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()
}

test('turn on two-factor authentication, sign out, sign in with a code and with a recovery code', async ({ page, browser }) => {
  test.setTimeout(90_000) // five sign-ins and two browsers
  const email = uniqueEmail('e2e-sec')
  await signUp(page, email)
  await confirmEmail(page, email)
  await page.goto('/account-settings')
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)

  await page.getByLabel('Code from the app').fill(totp(secret, currentStep() + 3))
  await page.getByRole('button', { name: 'Enable' }).click()
  await expect(page.getByText('Invalid code')).toBeVisible()
  // The step the enabling code belongs to: the sign-in below may come a
  // step later, so its codes are named by step, not by "now".
  const enabledStep = currentStep()
  await page.getByLabel('Code from the app').fill(totp(secret, enabledStep))
  await page.getByRole('button', { name: 'Enable' }).click()
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  const recovery = (await codes.first().textContent())!
  const recovery2 = (await codes.nth(1).textContent())!
  await page.getByRole('button', { name: 'I have saved them' }).click()
  await expect(page.getByText('Recovery codes left: 10')).toBeVisible()

  await logOut(page)
  await page.goto('/auth')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  // The password alone signs nobody in.
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0)
  await page.getByLabel('Authentication code').fill('000000')
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('Invalid code').first()).toBeVisible()
  // The enabling code's step is used up, and the step says so in words
  // (that code is within the drift of one step either side).
  await page.getByLabel('Authentication code').fill(totp(secret, enabledStep))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('This code was just used, wait for the next one').first()).toBeVisible()
  // The next step's code is within the drift.
  await page.getByLabel('Authentication code').fill(totp(secret, enabledStep + 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
  await expect(page).toHaveURL('/')

  // The sessions list shows this browser; the recovery code works once.
  await page.goto('/account-settings')
  await expect(page.getByRole('list', { name: 'Sessions' }).getByText('This device')).toBeVisible()
  await logOut(page)
  await page.goto('/auth')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await page.getByRole('button', { name: 'Use a recovery code' }).click()
  await page.getByLabel('Recovery code').fill(recovery)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
  await page.goto('/account-settings')
  await expect(page.getByText('Recovery codes left: 9')).toBeVisible()

  // Another browser signs in: the account is mailed, and the session can be ended from here at once.
  const other = await (await browser.newContext()).newPage()
  await other.goto('/auth')
  await other.getByLabel('Email', { exact: true }).fill(email)
  await other.getByLabel('Password', { exact: true }).fill(password)
  await other.getByRole('button', { name: 'Sign In', exact: true }).click()
  await other.getByRole('button', { name: 'Use a recovery code' }).click()
  await other.getByLabel('Recovery code').fill(recovery2)
  await other.getByRole('button', { name: 'Verify' }).click()
  await expect(other.getByRole('button', { name: 'Account menu' })).toBeVisible()
  const alert = await waitForMail(email, (m) => m.subject === 'New sign-in to your Squarely account')
  expect(alert.text).toContain('/account-settings#sessions')
  expect(alert.text, alert.text).toMatch(/Browser, as it reported itself: ".*HeadlessChrome\/.*"/) // the User-Agent, quoted as the browser sent it

  await page.reload()
  const sessions = page.getByRole('list', { name: 'Sessions' })
  await expect(sessions.getByRole('listitem')).toHaveCount(2)
  await sessions.getByRole('button', { name: 'End' }).click()
  await expect(page.getByText('Session ended', { exact: true })).toBeVisible()
  await expect(sessions.getByRole('listitem')).toHaveCount(1)
  await other.reload()
  await expect(other.getByRole('link', { name: 'Log in' })).toBeVisible()
  await other.context().close()
})

test.describe('passkeys', () => {
  // Browsers refuse IP addresses as relying party ids: the site on 127.0.0.1 takes passkeys at localhost.
  const origin = `http://localhost:${new URL(`http://${process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'}`).port}`
  test.use({ baseURL: origin })

  test('register a passkey with the virtual authenticator and sign in without a password', async ({ page }) => {
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })

    const email = uniqueEmail('e2e-sec')
    await signUp(page, email)
    await confirmEmail(page, email, origin)
    await page.goto('/account-settings')
    await page.getByLabel('Passkey name').fill('Virtual key')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await expect(page.getByText('Passkey added', { exact: true })).toBeVisible()
    await expect(page.getByRole('list', { name: 'Passkeys' }).getByText('Virtual key')).toBeVisible()
    // The same device again: the browser refuses (InvalidStateError), and we say why in our words.
    await page.getByLabel('Passkey name').fill('Same key')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await expect(page.getByText('This device already holds a passkey for your account.', { exact: true })).toBeVisible()

    await logOut(page)
    await page.goto('/auth')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await expect(page.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
    await expect(page).toHaveURL(origin + '/')
    await page.goto('/account-settings')
    const list = page.getByRole('list', { name: 'Passkeys' })
    await expect(list.getByText(/last used/)).toBeVisible()

    // Removing asks first: dismissed, the passkey stays; confirmed, it goes.
    let asked = ''
    page.once('dialog', (d) => {
      asked = d.message()
      void d.dismiss()
    })
    await list.getByRole('button', { name: 'Remove Virtual key' }).click()
    await expect.poll(() => asked).toBe('Remove the passkey “Virtual key”? You will no longer be able to sign in with it.')
    await expect(list.getByText('Virtual key')).toBeVisible()
    page.once('dialog', (d) => void d.accept())
    await list.getByRole('button', { name: 'Remove Virtual key' }).click()
    await expect(page.getByText('Passkey removed', { exact: true })).toBeVisible()
    await expect(page.getByText('No passkeys yet.')).toBeVisible()
  })
})

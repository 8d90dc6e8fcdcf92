import { execFileSync } from 'node:child_process'
import { expect, type Page } from '@playwright/test'
import { waitForMail } from './smtp-sink'

// The one way the specs make accounts: through the API when the test is
// about something else, through the form when it is about signing up.

export const password = 'e2e-secret-1'

/** An address no other test of the run uses; the prefix tells whose it is in the server's log. */
export function uniqueEmail(prefix = 'e2e') {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

/**
 * Registers email through the API, signed in in this page's context; answers
 * the new user. `origin` is for a server other than the test's baseURL.
 */
export async function signUp(page: Page, email = uniqueEmail(), origin = '') {
  const res = await page.request.post(`${origin}/api/register`, {
    data: { username: email, firstName: '', lastName: '', email, password, confirmPassword: password },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; username: string }
}

/** Fills in and sends the sign-up form; the caller checks what follows. */
export async function submitSignUpForm(page: Page, email: string, secret = password) {
  await page.goto('/auth')
  await page.getByRole('button', { name: 'Create a free account' }).click()
  // The switch is a transition: until the register form is drawn, "Email" is the sign-in form's field.
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(secret)
  await page.getByRole('button', { name: 'Create Account' }).click()
}

/** A mailed link to a path of the app, from the message's text part. */
export function linkIn(text: string, path: string) {
  const link = new RegExp(`(http\\S+${path.replace(/[/?]/g, '\\$&')}\\?token=[\\w-]+)`).exec(text)?.[1]
  expect(link, text).toBeTruthy()
  return link as string
}

/** Follows the confirmation link mailed to email in this page; `origin` replaces the link's. */
export async function confirmEmail(page: Page, email: string, origin?: string) {
  const mail = await waitForMail(email, (m) => m.subject === 'Confirm your Squarely email address')
  let link = linkIn(mail.text, '/verify-email')
  if (origin) link = origin + new URL(link).pathname + new URL(link).search
  await page.goto(link)
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
}

/** Makes a registered user an admin the way an operator does: the CLI on the server's data directory. */
export function grantAdmin(email: string) {
  execFileSync(process.env.SQUARELY_E2E_BIN ?? '../bin/squarely', ['admin', 'grant', email], {
    env: { ...process.env, SQUARELY_DATA_DIR: process.env.SQUARELY_E2E_DATA_DIR, DATABASE_URL: '' },
  })
}

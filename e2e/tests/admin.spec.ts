import { execFileSync } from 'node:child_process'
import { expect, test, type Page } from '@playwright/test'
import { waitForMail } from '../support/smtp-sink'

const password = 'e2e-admin-pass-1'

function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

async function register(page: Page, email: string) {
  await page.goto('/auth')
  await page.getByRole('button', { name: 'Create a free account' }).click()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByText('Registration successful', { exact: true })).toBeVisible()
}

// Makes a registered user an admin the way an operator does: the CLI on
// the server's data directory.
function grantAdmin(email: string) {
  execFileSync(process.env.SQUARELY_E2E_BIN ?? '../bin/squarely', ['admin', 'grant', email], {
    env: { ...process.env, SQUARELY_DATA_DIR: process.env.SQUARELY_E2E_DATA_DIR, DATABASE_URL: '' },
  })
}

test('a visitor opening /newsletter is sent to /', async ({ page }) => {
  await page.goto('/newsletter')
  await expect(page).toHaveURL('/')
})

test('a signed-in non-admin is turned away by the server', async ({ page }) => {
  await register(page, uniqueEmail('member'))
  const stats = page.waitForResponse('**/api/newsletter/stats')
  await page.goto('/newsletter')
  expect((await stats).status()).toBe(403)
  await expect(page.getByText('Admin access required')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Newsletter' })).toHaveCount(0)
})

test('an admin sends mailings over SMTP and sees them finish', async ({ page }) => {
  const email = uniqueEmail('admin')
  await register(page, email)
  grantAdmin(email)

  await page.goto('/newsletter')
  await expect(page.getByRole('heading', { name: 'Newsletter Manager' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible()
  await expect(page.getByText('Total Users')).toBeVisible()
  await expect(page.getByLabel('Content')).toHaveAttribute('rows', '15')
  await expect(page.getByRole('switch', { name: 'Include platform stats' })).toBeChecked()

  // Both fields are required before anything is sent.
  await page.getByLabel('Subject').fill('E2E news')
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  await expect(page.getByText('Missing Information', { exact: true })).toBeVisible()

  await page.getByLabel('Content').fill('Hello from the browser test.')
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  await expect(page.getByText('Newsletter Sent!', { exact: true })).toBeVisible()
  const newsletter = page.getByTestId('mailing').filter({ hasText: 'Newsletter: E2E news' })
  await expect(newsletter).toContainText('Finished')

  // The welcome mailing reaches every user, this admin included, through the SMTP sink.
  await page.getByRole('button', { name: 'Send Welcome to All Users' }).click()
  await expect(page.getByText('Welcome E-mails Sent!', { exact: true })).toBeVisible()
  const welcome = page.getByTestId('mailing').filter({ hasText: 'Welcome mailing' }).first()
  await expect(welcome).toContainText(/Finished: \d+ of \d+ sent/, { timeout: 30_000 })
  await expect(welcome.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100')

  const mail = await waitForMail(email, (m) => m.subject === 'Welcome to Squarely')
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
  const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1]
  expect(unsubscribe).toContain('/unsubscribe?token=')
  expect(mail.text).toContain(unsubscribe!)

  // The link shows a button; only pressing it unsubscribes.
  await page.goto(unsubscribe!)
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible()
  await page.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()

  // The test e-mail goes out at once.
  await page.goto('/newsletter')
  await page.getByRole('button', { name: 'Send me a test e-mail' }).click()
  await expect(page.getByText('Test E-mail Sent!', { exact: true })).toBeVisible()
  await waitForMail(email, (m) => m.subject === 'Squarely test e-mail')
})

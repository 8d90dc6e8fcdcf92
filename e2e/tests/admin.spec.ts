import { expect, test, type Page } from '@playwright/test'
import { grantAdmin, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

test('a visitor opening /newsletter is sent to /', async ({ page }) => {
  await page.goto('/newsletter')
  await expect(page).toHaveURL('/')
})

test('a signed-in non-admin is turned away by the server', async ({ page }) => {
  await signUp(page, uniqueEmail('member'))
  const stats = page.waitForResponse('**/api/newsletter/stats')
  await page.goto('/newsletter')
  expect((await stats).status()).toBe(403)
  await expect(page.getByText('Admin access required')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Newsletter' })).toHaveCount(0)
})

test('an admin sends mailings over SMTP and sees them finish', async ({ page }) => {
  const email = uniqueEmail('admin')
  await signUp(page, email)
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

import { expect, test, type Page } from '@playwright/test'
import { password, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

// Each test hashes several passwords at the binary's real bcrypt cost, on a
// machine shared with other runs.
test.describe.configure({ timeout: 120_000 })
test.use({ actionTimeout: 20_000 })
expect.configure({ timeout: 20_000 })

async function signIn(page: Page, email: string, secret: string) {
  await page.goto('/auth')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(secret)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

test('edit the name: Saving..., the toast, and the stored value after a reload', async ({ page }) => {
  const email = uniqueEmail('account')
  await signUp(page, email)
  await page.goto('/account-settings')
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible()
  await expect(page.getByText(email, { exact: true })).toBeVisible()
  await expect(page.getByText('Free', { exact: true })).toBeVisible()
  await expect(page.getByText('Email account', { exact: true })).toBeVisible()

  // Cancel goes back to the stored (empty) name.
  await page.getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('First name').fill('Nobody')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Not set', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('First name').fill('  Ada ')
  await page.getByLabel('Last name').fill('Lovelace')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Name Updated', { exact: true })).toBeVisible()
  await expect(page.getByText('Your name has been successfully updated.', { exact: true })).toBeVisible()
  await expect(page.getByText('Ada Lovelace', { exact: true })).toBeVisible()

  await page.reload()
  await expect(page.getByText('Ada Lovelace', { exact: true })).toBeVisible()
})

test('change the password, which signs out the other browser, and sign in with the new one', async ({ page, browser }) => {
  const email = uniqueEmail('account')
  await signUp(page, email)
  await page.goto('/')
  const otherContext = await browser.newContext()
  const other = await otherContext.newPage()
  await signIn(other, email, password)
  await expect(other.getByRole('button', { name: 'Account menu' })).toBeVisible()

  await page.bringToFront()
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'Change Password' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change Password' })
  await dialog.getByLabel('Current password').fill('not-the-password')
  await dialog.getByLabel('New password', { exact: true }).fill('e2e-new-secret')
  await dialog.getByLabel('Confirm new password').fill('e2e-new-secret')
  await dialog.getByRole('button', { name: 'Update Password' }).click()
  // In the toast and under the field, which is marked and described by it.
  await expect(page.getByText('Current password is incorrect', { exact: true })).toHaveCount(2)
  await expect(dialog.getByLabel('Current password')).toHaveAccessibleDescription('Current password is incorrect')

  await dialog.getByLabel('Current password').fill(password)
  await dialog.getByRole('button', { name: 'Update Password' }).click()
  await expect(page.getByText('Password updated', { exact: true })).toBeVisible()
  await expect(dialog).toHaveCount(0)

  // This browser stays signed in; the other one was signed out.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()
  await other.reload()
  await expect(other.getByRole('link', { name: 'Log in' })).toBeVisible()
  await otherContext.close()

  const fresh = await browser.newPage()
  await signIn(fresh, email, password)
  await expect(fresh.getByText('Login failed', { exact: true })).toBeVisible()
  await signIn(fresh, email, 'e2e-new-secret')
  await expect(fresh.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
  await fresh.close()
})

test('delete the account: confirmation, Deleting..., the toast, and / signed out', async ({ page }) => {
  const email = uniqueEmail('account')
  await signUp(page, email)
  await page.goto('/account-settings')
  await page.getByRole('button', { name: 'Delete Account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
  await expect(dialog).toBeVisible()
  // Slow the answer down so the pending state can be seen.
  await page.route('**/api/delete-account', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500))
    await route.continue()
  })
  await dialog.getByRole('button', { name: 'Delete Account' }).click()
  await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeVisible()
  await expect(page.getByText('Account Deleted', { exact: true })).toBeVisible()
  await expect(page.getByText('Your account has been successfully deleted. You will now be logged out.', { exact: true })).toBeVisible()
  await expect(page).toHaveURL('/', { timeout: 5000 })
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()
  await signIn(page, email, password)
  await expect(page.getByText('Login failed', { exact: true })).toBeVisible()
})

test('a trial account signs back in through the link its sign-in attempt mails', async ({ page }) => {
  const email = uniqueEmail('account')
  await page.goto('/')
  await page.getByLabel('Your email address').fill(email)
  await page.getByRole('button', { name: 'Start Free Trial' }).click()
  await expect(page.getByText('Free Trial Activated!', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()

  // The account has no password yet: signing in says so and mails a link.
  await signIn(page, email, 'anything-at-all')
  await expect(page.getByText('This account has no password yet. We have sent a link to its email address to choose one.', { exact: true })).toBeVisible()
  const mail = await waitForMail(email, (m) => m.subject === 'Choose your Squarely password')
  const link = /(http\S+\/set-password\?token=[\w-]+)/.exec(mail.text)?.[1]
  expect(link, mail.text).toBeTruthy()

  await page.goto(link!)
  await page.getByLabel('New password').fill('trial-secret-1')
  await page.getByLabel('Confirm password').fill('trial-secret-1')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()

  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()
  await signIn(page, email, 'trial-secret-1')
  await expect(page.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
})

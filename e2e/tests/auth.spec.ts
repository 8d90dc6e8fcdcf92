import { expect, test, type Page } from '@playwright/test'
import { password, submitSignUpForm, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  return page.getByRole('menu')
}

test('register, log out and log in again', async ({ page }) => {
  const email = uniqueEmail()
  await submitSignUpForm(page, email)
  await expect(page.getByText('Registration successful', { exact: true })).toBeVisible()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: 'My QR Codes' })).toBeVisible()

  let menu = await openAccountMenu(page)
  await expect(menu.getByText(email)).toBeVisible()
  await menu.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByText('You have been successfully logged out', { exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()

  // The session is gone on the server too: a reload stays signed out.
  await page.reload()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0)

  await page.getByRole('link', { name: 'Log in' }).click()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page.getByText(`Welcome back, ${email}!`, { exact: true })).toBeVisible()
  await expect(page).toHaveURL('/')

  // And the new session survives a reload.
  await page.reload()
  menu = await openAccountMenu(page)
  await expect(menu.getByText(email)).toBeVisible()
})

test('a wrong password shows the Login failed toast', async ({ page }) => {
  const email = uniqueEmail()
  await submitSignUpForm(page, email)
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()
  const menu = await openAccountMenu(page)
  await menu.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()

  await page.goto('/auth')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page.getByText('Login failed', { exact: true })).toBeVisible()
  await expect(page).toHaveURL('/auth')
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0)
})

test('registering an e-mail twice: a claim link while unconfirmed, the server message once confirmed', async ({ page, browser }) => {
  test.setTimeout(90_000) // three password hashes and two mails on a shared machine
  const email = uniqueEmail()
  await submitSignUpForm(page, email)
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()

  // Nobody has proven the address yet: the second registration signs nobody in and mails a claim link.
  const other = await browser.newPage()
  await submitSignUpForm(other, email)
  await expect(other.getByText('Check your email', { exact: true })).toBeVisible()
  await expect(other.getByRole('button', { name: 'Account menu' })).toHaveCount(0)
  await waitForMail(email, (m) => m.subject === 'Claim your Squarely account')

  // The owner confirms the address through the link mailed at registration.
  const confirmation = await waitForMail(email, (m) => m.subject === 'Confirm your Squarely email address')
  const link = /(http\S+\/verify-email\?token=[\w-]+)/.exec(confirmation.text)?.[1]
  expect(link, confirmation.text).toBeTruthy()
  await page.goto(link!)
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByText('Your email address is confirmed.')).toBeVisible()

  await submitSignUpForm(other, email)
  await expect(other.getByText('Registration failed', { exact: true })).toBeVisible()
  // In the toast and under the Email field, which is marked and described by it.
  await expect(other.getByText('An account with this email already exists', { exact: true })).toHaveCount(2)
  const field = other.getByLabel('Email', { exact: true })
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription('An account with this email already exists')
  await other.close()
})

import { expect, test } from '@playwright/test'
import { waitForMail } from '../support/smtp-sink'

test('a visitor starting a trial gets the set-password link by e-mail', async ({ page, request }) => {
  const email = `e2e-mail-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await request.post('/api/activate-trial', { data: { email } })
  expect(res.ok()).toBeTruthy()

  const mail = await waitForMail(email)
  expect(mail.subject).toBe('Your Squarely free trial: choose a password')
  expect(mail.headers['from']).toContain('hello@squarely.test')
  expect(mail.html).toContain('/set-password?token=')
  const link = /(http\S+\/set-password\?token=[\w-]+)/.exec(mail.text)?.[1]
  expect(link, mail.text).toBeTruthy()

  await page.goto(link!)
  await expect(page).toHaveURL(/\/set-password\?token=/)
})

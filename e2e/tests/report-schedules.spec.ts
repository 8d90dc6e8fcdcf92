import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

test('a member schedules a weekly report, sends a test and unsubscribes from the mail', async ({ page, baseURL }) => {
  test.setTimeout(60_000)
  const email = uniqueEmail('digest')
  await signUp(page, email)
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { destination: `${baseURL}/about`, qrType: 'url', qrData: JSON.stringify({ url: `${baseURL}/about` }), name: 'Weekly poster' },
  })
  expect(created.status()).toBe(201)

  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Analytics' }).click()
  const analytics = page.getByRole('dialog', { name: 'Analytics Dashboard' })
  await analytics.getByRole('tab', { name: 'Reports' }).click()
  await expect(analytics.getByText('No scheduled reports yet.')).toBeVisible()

  await analytics.getByRole('button', { name: 'Add schedule' }).click()
  const form = page.getByRole('form', { name: 'New report schedule' })
  await form.getByLabel('What to report on').selectOption({ label: 'Code: Weekly poster' })
  await form.getByLabel('How often').selectOption('weekly')
  await form.getByLabel('Day').selectOption('monday')
  await form.getByLabel('Hour').selectOption('9')
  await form.getByLabel('Time zone').fill('Europe/Berlin')
  await expect(form.getByLabel(/Recipients/)).toHaveValue(email)
  await form.getByRole('button', { name: 'Schedule report' }).click()
  await expect(form).toBeHidden()

  const row = analytics.getByRole('listitem', { name: 'Code Weekly poster, Weekly on Monday at 09:00 (Europe/Berlin)' })
  await expect(row).toContainText(`${email} · PDF and CSV`)
  await row.getByRole('button', { name: 'Send a test now' }).click()
  await expect(page.getByText('Report sent to 1 recipient(s).', { exact: true })).toBeVisible()

  const mail = await waitForMail(email, (m) => m.subject.startsWith('Weekly scan report: the code Weekly poster'))
  expect(mail.attachments.map((a) => [a.contentType, a.filename.replace(/\d{4}-\d{2}-\d{2}/, 'DATE')])).toEqual([
    ['application/pdf', 'scan-report-DATE.pdf'],
    ['text/csv', 'scan-report-DATE.csv'],
  ])
  expect(mail.attachments.every((a) => a.size > 0)).toBe(true)
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
  const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1]
  expect(unsubscribe).toContain('/unsubscribe/report?token=')
  expect(mail.text).toContain(unsubscribe!)

  // The link works signed out: a button, and only pressing it unsubscribes.
  await page.context().clearCookies()
  await page.goto(unsubscribe!)
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible()
  await page.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
})

import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { violations } from '../support/axe'
import { publishA, publishTXT } from '../support/dns-server'

// Issue 25 item 7: an owner adds a custom domain, sees the TXT record to
// publish, verification fails until it is published on the run's DNS
// server (which the binary asks: SQUARELY_DOMAIN_RESOLVER) and passes
// after; the domain is then "Verified, not pointing here yet", with the
// record to add, until its A record sends the pointing check to this
// server; a dynamic code then picks the domain in its edit dialog and its
// short link moves onto it.

test.describe.configure({ timeout: 120_000 })
expect.configure({ timeout: 20_000 })

test('a verified domain carries a dynamic code’s short link', async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail('domains'))
  const domain = `qr${Date.now()}.shop.example`
  const created = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination: `${baseURL}/faq`, qrData: JSON.stringify({ url: `${baseURL}/faq` }), name: 'Counter card' },
  })
  expect(created.status()).toBe(201)
  const code = (await created.json()) as { id: number; shortCode: string; shortUrl: string }
  expect(code.shortUrl).toBe(`${baseURL}/d/${code.shortCode}`)

  await page.goto('/dashboard')
  await page.goto('/workspace/domains')
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible()
  await expect(page.getByText('No domains yet.')).toBeVisible()
  await page.getByLabel('Domain').fill(`https://${domain}/`)
  await page.getByRole('button', { name: 'Add domain' }).click()
  await expect(page.getByText('Enter the domain alone, such as qr.example.com: no scheme, port, path or wildcard')).toBeVisible()
  await page.getByLabel('Domain').fill(domain.toUpperCase())
  await page.getByRole('button', { name: 'Add domain' }).click()

  const item = page.getByTestId(`domain-${domain}`)
  await expect(item.getByText('Pending')).toBeVisible()
  const listed = (await (await page.request.get('/api/domains')).json()) as { id: number; txtName: string; txtValue: string }[]
  expect(listed[0].txtName).toBe(`_squarely-verify.${domain}`)
  await expect(item.getByText(`${listed[0].txtName} → ${listed[0].txtValue}`)).toBeVisible()

  // Nothing published yet: the failure says what was found.
  await item.getByRole('button', { name: 'Verify' }).click()
  await expect(item.getByText(`Not verified. DNS: there is no TXT record at _squarely-verify.${domain}.`, { exact: false })).toBeVisible()

  await publishTXT(listed[0].txtName, listed[0].txtValue)
  await item.getByRole('button', { name: 'Verify' }).click()
  await expect(item.getByText('Verified, not pointing here yet', { exact: true })).toBeVisible()
  const host = new URL(baseURL ?? '').hostname
  await expect(item.getByTestId('cname-target')).toHaveText(`${domain} → ${host}`)
  await expect(item.getByText(`${domain} does not point here yet: it has no A, AAAA or CNAME record (add a CNAME record to ${host})`, { exact: false })).toBeVisible()
  // Not pointing: the code cannot print it yet, so its Domain tab does not offer it.
  const early = await page.request.patch(`/api/dynamic-qrcodes/${code.id}`, { data: { domainId: listed[0].id } })
  expect(early.status()).toBe(400)
  expect(await violations(page)).toEqual([])
  // Check again is reachable from the keyboard.
  await item.getByRole('button', { name: 'Check again' }).focus()
  await expect(item.getByRole('button', { name: 'Check again' })).toBeFocused()

  await publishA(domain, '127.0.0.1')
  await item.getByRole('button', { name: 'Check again' }).click()
  await expect(item.getByText('Verified', { exact: true })).toBeVisible()
  await expect(item.getByText(/Verified by DNS/)).toBeVisible()
  await expect(item.getByTestId('cname-target')).toBeHidden()

  // The code's Domain tab offers the verified domain; saving moves its short link.
  await page.goto('/dashboard')
  const card = page.getByTestId('qr-card').filter({ hasText: 'Counter card' })
  await card.getByRole('button', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })
  await dialog.getByRole('tab', { name: 'Domain' }).click()
  await expect(dialog.getByText(`Short link now: ${code.shortUrl}.`, { exact: false })).toBeVisible()
  await dialog.getByLabel('Printed domain').selectOption(domain)
  await dialog.getByRole('button', { name: 'Save Domain' }).click()
  await expect(dialog).toBeHidden()

  const moved = (await (await page.request.get('/api/dynamic-qrcodes')).json()) as { id: number; shortUrl: string }[]
  expect(moved.find((c) => c.id === code.id)?.shortUrl).toBe(`https://${domain}/d/${code.shortCode}`)
  await card.getByRole('button', { name: 'Edit' }).click()
  await dialog.getByRole('tab', { name: 'Domain' }).click()
  await expect(dialog.getByText(`Short link now: https://${domain}/d/${code.shortCode}.`, { exact: false })).toBeVisible()
  await expect(dialog.getByLabel('Printed domain')).toHaveValue(/\d+/)

  // The domain is printed: deleting it is refused, and says why. The page
  // fits a phone's width.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/workspace/domains')
  await expect(page.getByTestId(`domain-${domain}`)).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  page.once('dialog', (d) => d.accept())
  await page.getByTestId(`domain-${domain}`).getByRole('button', { name: `Delete ${domain}` }).click()
  await expect(page.getByText('Dynamic codes print this domain: move them to another domain before deleting it', { exact: true })).toBeVisible()
})

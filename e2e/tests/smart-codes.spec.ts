import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Issue 23: a rule built in the Edit Dynamic QR Code dialog routes the
// next scan from an iPhone, while other devices keep the destination.

const phoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const desktopUA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

test('a rule built in the dialog sends iPhones elsewhere, and the card says so', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000) // three browsers scan; a loaded CI machine took it past 30 s
  await signUp(page, uniqueEmail('smart'))
  const destination = `${baseURL}/faq`
  const forPhones = `${baseURL}/about`
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name: 'Smart menu' },
  })
  expect(res.status()).toBe(201)
  const code = (await res.json()) as { shortCode: string }

  await page.goto('/dashboard')
  const card = page.getByTestId('qr-card').filter({ hasText: 'Smart menu' })
  await card.getByRole('button', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })

  // The UTM builder composes the destination in the browser.
  await dialog.getByLabel('utm_source').fill('flyer')
  await dialog.getByLabel('utm_campaign').fill('spring')
  await dialog.getByRole('button', { name: 'Add UTM to URL' }).click()
  await expect(dialog.getByLabel('Destination URL')).toHaveValue(`${destination}?utm_source=flyer&utm_campaign=spring`)

  await dialog.getByRole('tab', { name: 'Rules' }).click()
  await dialog.getByRole('button', { name: 'Add rule' }).click()
  // A refused rule shows the server's error beside its field, in words, and saves nothing.
  await dialog.getByRole('group', { name: 'Rule 1 devices' }).getByLabel('iOS').check()
  await dialog.getByLabel('Rule 1 URL').fill('javascript:alert(1)')
  await dialog.getByRole('button', { name: 'Save Routing' }).click()
  await expect(dialog.getByLabel('Rule 1 URL')).toHaveAccessibleDescription('Rule 1: destination is not a valid URL')

  await dialog.getByLabel('Rule 1 URL').fill(forPhones)
  await dialog.getByRole('button', { name: 'Save Routing' }).click()
  await expect(page.getByText('Routing saved', { exact: true })).toBeVisible()
  await expect(card.getByTestId('routing-badge')).toHaveText(['Rules'])

  // A stranger's iPhone follows the rule; a desktop keeps the destination.
  const phone = await browser.newContext({ userAgent: phoneUA })
  const scan = await phone.newPage()
  await scan.goto(`/d/${code.shortCode}`)
  await expect(scan).toHaveURL(forPhones)
  await phone.close()

  const desktop = await browser.newContext({ userAgent: desktopUA })
  const other = await desktop.newPage()
  await other.goto(`/d/${code.shortCode}`)
  await expect(other).toHaveURL(destination)
  await desktop.close()

  // The schedule tab: a limit of one scan already used ends the code.
  await card.getByRole('button', { name: 'Edit' }).click()
  await dialog.getByRole('tab', { name: 'Schedule & limit' }).click()
  await dialog.getByLabel('Scan limit').fill('1')
  await dialog.getByRole('button', { name: 'Save Routing' }).click()
  await expect(card.getByTestId('routing-badge')).toHaveText(['Rules', 'Ends in 1 scan'])
  const last = await browser.newContext({ userAgent: phoneUA })
  const lastScan = await last.newPage()
  await lastScan.goto(`/d/${code.shortCode}`)
  await expect(lastScan).toHaveURL(forPhones)
  const ended = await lastScan.goto(`/d/${code.shortCode}`)
  expect(ended?.status()).toBe(410)
  await expect(lastScan.getByRole('heading', { name: 'This QR code is no longer active' })).toBeVisible()
  await last.close()
  await page.reload()
  await expect(card.getByTestId('routing-badge')).toHaveText(['Rules', 'Ended'])
})

test('a UTM preset saved on one code fills the builder of another, and its scans carry the parameters', async ({ page, browser, baseURL }) => {
  await signUp(page, uniqueEmail('smart'))
  const make = async (name: string, destination: string) => {
    const res = await page.request.post('/api/dynamic-qrcodes', {
      multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
    })
    expect(res.status()).toBe(201)
    return (await res.json()) as { shortCode: string }
  }
  await make('Spring flyer', `${baseURL}/faq`)
  const poster = await make('Spring poster', `${baseURL}/about`)

  await page.goto('/dashboard')
  const dialog = page.getByRole('dialog', { name: 'Edit Dynamic QR Code' })
  await page.getByTestId('qr-card').filter({ hasText: 'Spring flyer' }).getByRole('button', { name: 'Edit' }).click()
  await dialog.getByLabel('utm_source').fill('flyer')
  await dialog.getByLabel('utm_medium').fill('print')
  await dialog.getByLabel('utm_campaign').fill('spring')
  await dialog.getByLabel('Preset name').fill('Spring print')
  await dialog.getByRole('button', { name: 'Save as preset' }).click()
  await expect(dialog.getByLabel('Saved preset')).toHaveValue(/\d+/)
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  // Another code's builder starts empty and takes the preset's values.
  await page.getByTestId('qr-card').filter({ hasText: 'Spring poster' }).getByRole('button', { name: 'Edit' }).click()
  await expect(dialog.getByLabel('utm_source')).toHaveValue('')
  await dialog.getByLabel('Saved preset').selectOption({ label: 'Spring print' })
  await expect(dialog.getByLabel('utm_campaign')).toHaveValue('spring')
  await dialog.getByRole('button', { name: 'Add UTM to URL' }).click()
  const tagged = `${baseURL}/about?utm_source=flyer&utm_medium=print&utm_campaign=spring`
  await expect(dialog.getByLabel('Destination URL')).toHaveValue(tagged)
  await dialog.getByRole('button', { name: 'Save Changes' }).click()
  await expect(dialog).toBeHidden()

  const visitor = await browser.newContext({ userAgent: desktopUA })
  const scan = await visitor.newPage()
  await scan.goto(`/d/${poster.shortCode}`)
  await expect(scan).toHaveURL(tagged)
  await visitor.close()
})

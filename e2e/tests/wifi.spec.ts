import { execFileSync } from 'node:child_process'
import { expect, test } from '@playwright/test'

// The WiFi type against the real binary (issue 10): the Guest WiFi template
// fills the generator, and the downloaded PNG scans as the network's
// WIFI: text with \ ; , : and " escaped.

/** What zbarimg reads in an image file; ZXingReader must read the same. */
function decode(file: string): string {
  const text = execFileSync('zbarimg', ['--raw', '-q', file]).toString().trim()
  expect(execFileSync('ZXingReader', ['-bytes', file]).toString().trim()).toBe(text)
  return text
}

test('the Guest WiFi template fills the generator and the downloaded code joins the network', async ({ page }, testInfo) => {
  await page.goto('/templates')
  await page.locator('article').filter({ hasText: 'Guest WiFi' }).getByRole('button', { name: 'Use Template' }).click()
  await expect(page).toHaveURL('/?qr=wifi')
  const generator = page.locator('#qr-generator')
  await expect(generator.getByRole('combobox', { name: 'QR code type' })).toHaveText(/WiFi/)
  await expect(generator.getByLabel('Network name (SSID)')).toHaveValue('Cafe-Guests')
  await expect(generator.getByLabel('Password')).toHaveValue('espresso2026')
  await expect(generator.getByLabel('Security')).toHaveValue('WPA')

  // An open network asks for no password.
  await generator.getByLabel('Security').selectOption('nopass')
  await expect(generator.getByLabel('Password')).toHaveCount(0)
  await generator.getByLabel('Security').selectOption('WPA')

  await generator.getByLabel('Network name (SSID)').fill('Café "Net"; 2,4:GHz\\x')
  await generator.getByLabel('Password').fill('p;a:s,s"\\')
  await generator.getByLabel('Hidden network (not broadcast)').check()
  await generator.getByRole('button', { name: 'Generate QR Code' }).click()
  await expect(page.getByText('QR Code generated', { exact: true })).toBeVisible()

  const downloading = page.waitForEvent('download')
  await generator.getByRole('button', { name: 'Download PNG' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('wifi.png')
  const file = testInfo.outputPath('wifi.png')
  await download.saveAs(file)
  expect(decode(file)).toBe('WIFI:T:WPA;S:Café \\"Net\\"\\; 2\\,4\\:GHz\\\\x;P:p\\;a\\:s\\,s\\"\\\\;H:true;;')
})

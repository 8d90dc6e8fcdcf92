import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// Spreadsheet updates: a CSV keyed by short code changes each row's code
// its own way after a dry run shows it, and the change is undone.

async function dynamic(page: Page, name: string, destination: string) {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; shortCode: string }
}

/** Each code's destination, "(paused)" after a paused one's. */
async function codes(page: Page) {
  const out: Record<string, string> = {}
  for (const [path, mark] of [['/api/dynamic-qrcodes', ''], ['/api/dynamic-qrcodes/paused', ' (paused)']]) {
    const list = (await (await page.request.get(path)).json()) as { name: string; destination: string }[]
    for (const c of list) out[c.name] = c.destination + mark
  }
  return out
}

test('update codes from a spreadsheet: dry run, apply, undo', async ({ page }) => {
  await signUp(page, uniqueEmail('sheetupdate'))
  const lunch = await dynamic(page, 'Lunch', 'https://old.example/lunch')
  const dinner = await dynamic(page, 'Dinner', 'https://old.example/dinner')
  const csv = `shortCode,destination,paused\n${lunch.shortCode},https://new.example/{shortCode},\n${dinner.shortCode},,true\nnosuch,https://x.example,\n`

  await page.goto('/bulk-generation')
  const section = page.getByRole('region', { name: 'Update existing codes from a spreadsheet' })
  await section.getByLabel('Spreadsheet of changes (.csv or .xlsx)').setInputFiles({ name: 'changes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await section.getByRole('button', { name: 'Preview changes' }).click()

  // The dry run: each row's change, the row naming no code; nothing changed yet.
  await expect(section.getByTestId('bulk-edit-summary')).toHaveText('3 rows selected: 2 will change, 1 will fail.')
  await expect(section.getByRole('row', { name: /Lunch/ })).toContainText(`https://new.example/${lunch.shortCode}`)
  await expect(section.getByRole('row', { name: /Dinner/ })).toContainText('paused')
  await expect(section.getByText('Row 4, nosuch: No code of this workspace has this short code')).toBeVisible()
  const before = { Lunch: 'https://old.example/lunch', Dinner: 'https://old.example/dinner' }
  expect(await codes(page)).toEqual(before)

  await section.getByRole('button', { name: 'Apply to 2 codes' }).click()
  await expect(section.getByTestId('bulk-edit-status')).toHaveText('Done: 2 changed, 0 failed.')
  expect(await codes(page)).toEqual({ Lunch: `https://new.example/${lunch.shortCode}`, Dinner: 'https://old.example/dinner (paused)' })

  await section.getByRole('button', { name: 'Undo' }).click()
  await expect(section.getByTestId('bulk-edit-undone')).toHaveText('Restored 2 codes.')
  expect(await codes(page)).toEqual(before)
})

import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'
import { violations } from '../support/axe'

// Bulk edits: every code in a folder gets a new host after a dry run
// shows it, then the change is undone; driven from the keyboard where a
// person would tab.

async function dynamic(page: Page, name: string, destination: string) {
  const res = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination, qrData: JSON.stringify({ url: destination }), name },
  })
  expect(res.status()).toBe(201)
  return (await res.json()) as { id: number; shortCode: string }
}

async function destinations(page: Page) {
  const list = (await (await page.request.get('/api/dynamic-qrcodes')).json()) as { name: string; destination: string }[]
  return Object.fromEntries(list.map((c) => [c.name, c.destination]))
}

test('replace the host of a folder’s codes: dry run, apply, undo', async ({ page }) => {
  await signUp(page, uniqueEmail('bulkedit'))
  const folder = await page.request.post('/api/folders', { data: { name: 'Menus' } })
  expect(folder.status()).toBe(201)
  const folderID = ((await folder.json()) as { id: number }).id
  for (const name of ['Lunch', 'Dinner']) {
    const code = await dynamic(page, name, `https://old.example/${name.toLowerCase()}`)
    expect((await page.request.put(`/api/dynamic-qrcodes/${code.id}/folder`, { data: { folderId: folderID } })).status()).toBe(200)
  }
  await dynamic(page, 'Poster', 'https://old.example/poster')

  await page.goto('/dashboard')
  await expect(page.getByTestId('qr-card')).toHaveCount(3)
  await expect(page.getByText('3 codes', { exact: true })).toBeVisible()
  await page.getByRole('combobox', { name: 'Folder' }).selectOption({ label: 'Menus' })
  await expect(page.getByTestId('qr-card')).toHaveCount(2)
  await expect(page.getByText('2 of 3 match', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Bulk edit all 2 codes matching this filter' }).click()

  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('combobox', { name: 'Change' })).toHaveValue('replace')
  await dialog.getByLabel('Replace').fill('https://old.example')
  await page.keyboard.press('Tab')
  await page.keyboard.type('https://new.example')
  await dialog.getByRole('button', { name: 'Preview changes' }).click()

  // The dry run: both codes, before and after; nothing changed yet.
  await expect(dialog.getByTestId('bulk-edit-summary')).toHaveText('2 codes selected: 2 will change, 0 will fail.')
  const table = dialog.getByRole('table')
  await expect(table.getByRole('row', { name: /Dinner/ })).toContainText('https://old.example/dinner')
  await expect(table.getByRole('row', { name: /Dinner/ })).toContainText('https://new.example/dinner')
  expect(await destinations(page)).toEqual({ Lunch: 'https://old.example/lunch', Dinner: 'https://old.example/dinner', Poster: 'https://old.example/poster' })
  expect(await violations(page, '[role="dialog"]')).toEqual([])

  await dialog.getByRole('button', { name: 'Apply to 2 codes' }).focus()
  await page.keyboard.press('Enter')
  await expect(dialog.getByTestId('bulk-edit-status')).toHaveText('Done: 2 changed, 0 failed.')
  expect(await destinations(page)).toEqual({ Lunch: 'https://new.example/lunch', Dinner: 'https://new.example/dinner', Poster: 'https://old.example/poster' })

  await dialog.getByRole('button', { name: 'Undo' }).click()
  await expect(dialog.getByTestId('bulk-edit-undone')).toHaveText('Restored 2 codes.')
  expect(await destinations(page)).toEqual({ Lunch: 'https://old.example/lunch', Dinner: 'https://old.example/dinner', Poster: 'https://old.example/poster' })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

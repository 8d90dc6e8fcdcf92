import { expect, test, type Locator, type Page } from '@playwright/test'
import { confirmEmail, linkIn, password, signUp, uniqueEmail } from '../support/accounts'
import { waitForMail } from '../support/smtp-sink'

// Issue 22: a team workspace shared by two people. A makes codes and invites
// B as a viewer; B follows the mailed link, signs up, confirms the address,
// joins, sees the shared codes and cannot change them (the app hides the
// buttons and the server refuses); as an editor B can.

// Several password hashes and mails on a machine shared with other runs.
test.describe.configure({ timeout: 180_000 })
test.use({ actionTimeout: 20_000 })
expect.configure({ timeout: 20_000 })

function card(page: Page, name: string): Locator {
  return page.getByTestId('qr-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

/** How far the document is wider than the viewport (0 when nothing scrolls sideways). */
async function overflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}

test('an invited viewer joins from the mailed link, sees the shared codes, cannot edit them, and can once made an editor', async ({ page, browser }) => {
  const team = `Agency ${Date.now()}`
  const alice = uniqueEmail('ws-a')
  const bob = uniqueEmail('ws-b')
  await signUp(page, alice)

  // A makes a team workspace from the header's switcher; it becomes the active one.
  await page.goto('/dashboard')
  await page.getByRole('banner').getByRole('button', { name: 'Workspace: Personal' }).click()
  await page.getByRole('menuitem', { name: 'Create workspace' }).click()
  const create = page.getByRole('dialog', { name: 'Create workspace' })
  await create.getByLabel('Workspace name').fill(team)
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: `Workspace: ${team}` })).toBeVisible()
  await expect(page.getByText('No QR codes yet')).toBeVisible()

  // Codes made now belong to the team workspace.
  const made = await page.request.post('/api/dynamic-qrcodes', {
    multipart: { qrType: 'url', destination: 'https://cafe.example/menu', qrData: JSON.stringify({ url: 'https://cafe.example/menu' }), name: 'Menu card' },
  })
  expect(made.status()).toBe(201)
  const menu = (await made.json()) as { id: number }
  const saved = await page.request.post('/api/qrcodes', { multipart: { qrType: 'url', url: 'https://cafe.example', name: 'Shop front' } })
  expect(saved.status()).toBe(201)

  // A tags the menu with a new tag, and the tag filter finds it on the server.
  await page.reload()
  await page.getByRole('button', { name: 'Manage tags and folders' }).click()
  const organise = page.getByRole('dialog', { name: 'Tags and folders' })
  await organise.getByRole('button', { name: 'New tag' }).click()
  const newTag = page.getByRole('dialog', { name: 'New tag' })
  await newTag.getByLabel('Tag name').fill('Print')
  await newTag.getByRole('radio', { name: 'Green' }).check()
  await newTag.getByRole('button', { name: 'Save tag' }).click()
  await expect(organise.getByRole('list', { name: 'Tags' })).toContainText('Print')
  await organise.getByRole('button', { name: 'Close' }).click()
  await card(page, 'Menu card').getByRole('button', { name: 'Add tags to Menu card' }).click()
  const labels = page.getByRole('dialog', { name: 'Tags and folder' })
  await labels.getByRole('checkbox', { name: 'Print' }).check()
  await labels.getByRole('button', { name: 'Save' }).click()
  await expect(card(page, 'Menu card').getByTestId('code-labels')).toContainText('Print')
  await page.getByRole('combobox', { name: 'Tag' }).selectOption({ label: 'Print' })
  await expect(page.getByTestId('qr-card')).toHaveCount(1)
  await expect(card(page, 'Menu card')).toBeVisible()
  await page.getByRole('combobox', { name: 'Tag' }).selectOption({ label: 'All tags' })
  await expect(page.getByTestId('qr-card')).toHaveCount(2)

  // A invites B as a viewer from the Members page.
  await page.goto('/workspace/members')
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible()
  await page.getByLabel('Email').fill(bob)
  await page.getByLabel('Role').selectOption('viewer')
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(bob)

  // B follows the mailed link, signed out: signs up from it and comes back to it.
  const invitation = await waitForMail(bob, (m) => m.text.includes('/invitations/accept?token='))
  const link = linkIn(invitation.text, '/invitations/accept')
  const bobContext = await browser.newContext()
  const b = await bobContext.newPage()
  await b.goto(link)
  await expect(b.getByRole('heading', { name: 'Join a workspace' })).toBeVisible()
  // Before signing in, the page says which workspace, as what, and from whom.
  await expect(b.getByTestId('invitation-summary')).toHaveText(new RegExp(`invited you to join ${team} as a viewer\\.$`))
  await b.getByRole('link', { name: 'Create an account' }).click()
  await b.getByLabel('Email', { exact: true }).fill(bob)
  await b.getByLabel('Password', { exact: true }).fill(password)
  await b.getByRole('button', { name: 'Create Account' }).click()
  await expect(b).toHaveURL(/\/invitations\/accept\?token=/)
  await expect(b.getByText(`You are signed in as ${bob}.`)).toBeVisible()

  // The mailed link proved the address: Accept works at once, without confirming it again.
  await b.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(b.getByText(`You joined ${team} as viewer.`)).toBeVisible()
  await b.getByRole('link', { name: 'Go to the shared QR codes' }).click()

  // B sees the team's codes, in the team workspace, with nothing that changes them.
  await expect(b.getByRole('banner').getByRole('button', { name: `Workspace: ${team}` })).toBeVisible()
  await expect(b.getByTestId('qr-card')).toHaveCount(2)
  const bobMenu = card(b, 'Menu card')
  await expect(bobMenu.getByTestId('code-labels')).toContainText('Print')
  await expect(bobMenu.getByRole('button', { name: 'View', exact: true })).toBeVisible()
  for (const name of ['Edit', 'Pause', 'Delete', 'Rename Menu card', 'Duplicate', 'Edit tags and folder of Menu card']) {
    await expect(bobMenu.getByRole('button', { name, exact: true })).toHaveCount(0)
  }
  await expect(b.getByRole('button', { name: 'Manage tags and folders' })).toHaveCount(0)

  // And the server refuses a viewer's changes, saying why, changing nothing.
  for (const [method, url, data] of [
    ['PUT', `/api/dynamic-qrcodes/${menu.id}`, { destination: 'https://evil.example' }],
    ['PATCH', `/api/dynamic-qrcodes/${menu.id}`, { name: 'Hijacked' }],
    ['POST', `/api/dynamic-qrcodes/${menu.id}/pause`, undefined],
  ] as const) {
    const res = await b.request.fetch(url, { method, data })
    expect(res.status(), `${method} ${url}`).toBe(403)
    expect(((await res.json()) as { message: string }).message).toBe(`You are a viewer in ${team}; only an editor or above can do this`)
  }
  const asViewer = (await (await b.request.get('/api/codes?kind=dynamic')).json()) as { items: { id: number; name: string; destination: string; isPaused: boolean }[] }
  expect(asViewer.items.find((c) => c.id === menu.id)).toMatchObject({ name: 'Menu card', destination: 'https://cafe.example/menu', isPaused: false })

  // A makes B an editor.
  await page.reload()
  const bobRole = page.getByRole('combobox', { name: `Role of ${bob}` })
  await expect(bobRole).toHaveValue('viewer')
  // Arrow keys on the closed select only stage a role: nothing is sent until Change role.
  const patches: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes('/members/')) patches.push(request.url())
  })
  await bobRole.focus()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect(page.getByRole('button', { name: `Change role of ${bob}` })).toBeVisible()
  await page.waitForTimeout(300)
  expect(patches).toEqual([])
  await bobRole.selectOption('editor')
  await page.getByRole('button', { name: `Change role of ${bob}` }).click()
  await expect(page.getByText('Role changed', { exact: true })).toBeVisible()

  // Now B edits the destination from the card.
  await b.reload()
  await card(b, 'Menu card').getByRole('button', { name: 'Edit', exact: true }).click()
  const edit = b.getByRole('dialog', { name: 'Edit Dynamic QR Code' })
  await edit.getByLabel('Destination URL').fill('https://cafe.example/winter-menu')
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(b.getByText('Destination updated', { exact: true })).toBeVisible()
  const asOwner = (await (await page.request.get('/api/codes?kind=dynamic')).json()) as { items: { id: number; destination: string }[] }
  expect(asOwner.items.find((c) => c.id === menu.id)?.destination).toBe('https://cafe.example/winter-menu')

  // A sees who did what on the Activity page.
  await page.goto('/workspace/activity')
  const log = page.getByRole('list', { name: 'Activity' })
  await expect(log.getByRole('listitem').first()).toContainText(`${bob} changed the destination of Menu card`)
  await expect(log).toContainText(`${alice} changed the role of`)
  await expect(log).toContainText(`${bob} joined the workspace`)
  await expect(log).toContainText(`${alice} invited`)

  // At a phone's width A's pages fit with every control, B's too, and B's
  // side menu switches back to the personal workspace.
  await page.setViewportSize({ width: 390, height: 844 })
  for (const path of ['/workspace/members', '/workspace/activity', '/dashboard']) {
    await page.goto(path)
    await expect(page.getByRole('banner').getByRole('button', { name: `Workspace: ${team}` })).toBeVisible()
    expect(await overflow(page), path).toBeLessThanOrEqual(0)
  }
  await page.goto('/workspace/members')
  for (const control of [page.getByRole('button', { name: 'Send invitation' }), page.getByRole('combobox', { name: `Role of ${bob}` }), page.getByRole('button', { name: `Remove ${bob}` })]) {
    const box = await control.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, String(control)).toBe(true)
  }
  await b.setViewportSize({ width: 390, height: 844 })
  for (const path of ['/dashboard', '/workspace/members']) {
    await b.goto(path)
    await expect(b.getByRole('banner').getByRole('button', { name: `Workspace: ${team}` })).toBeVisible()
    expect(await overflow(b), path).toBeLessThanOrEqual(0)
  }
  await b.goto('/dashboard')
  await b.getByRole('button', { name: 'Open dashboard menu' }).click()
  const overlay = b.getByRole('dialog', { name: 'Dashboard menu' })
  await overlay.getByRole('button', { name: `Workspace: ${team}` }).click()
  await b.getByRole('menuitem', { name: /Personal/ }).click()
  await expect(b.getByRole('banner').getByRole('button', { name: 'Workspace: Personal' })).toBeVisible()
  await expect(b.getByText('No QR codes yet')).toBeVisible()
  await bobContext.close()
})

test('an invitation opened by another confirmed address is refused and stays usable', async ({ page, browser }) => {
  const owner = uniqueEmail('ws-o')
  const invited = uniqueEmail('ws-i')
  const other = uniqueEmail('ws-x')
  await signUp(page, owner)
  const ws = await page.request.post('/api/workspaces', { data: { name: `Team ${Date.now()}` } })
  expect(ws.status()).toBe(201)
  const { id } = (await ws.json()) as { id: number }
  expect((await page.request.post(`/api/workspaces/${id}/invitations`, { data: { email: invited, role: 'editor' } })).status()).toBe(201)
  const link = linkIn((await waitForMail(invited, (m) => m.text.includes('/invitations/accept?token='))).text, '/invitations/accept')

  // Someone else, with a confirmed address, opens the link.
  const context = await browser.newContext()
  const x = await context.newPage()
  await signUp(x, other)
  await confirmEmail(x, other)
  await x.goto(link)
  await x.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(x.getByText('This invitation is for another email address')).toBeVisible()
  const workspaces = (await (await x.request.get('/api/workspaces')).json()) as { id: number }[]
  expect(workspaces.map((w) => w.id)).not.toContain(id)

  // Signing out from there leads back to signing in for the invited address.
  await x.getByRole('button', { name: 'Sign out' }).click()
  await expect(x.getByRole('link', { name: 'Sign in to accept' })).toBeVisible()
  await context.close()

  // The invitation is still pending.
  const pending = (await (await page.request.get(`/api/workspaces/${id}/invitations`)).json()) as { email: string }[]
  expect(pending.map((p) => p.email)).toContain(invited)
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { describeDetails } from './lib/audit'

// Issue 22: the workspace switcher, the Members and Activity pages and the
// mailed invitation's page.

type Role = 'owner' | 'admin' | 'editor' | 'viewer'
type Handlers = Parameters<typeof stubFetch>[0]

const personal = { id: 1, name: 'Personal', role: 'owner' as const, personal: true }
const agency = { id: 9, name: 'Agency', role: 'admin' as const, personal: false }

const members = [
  { userId: 1, email: 'alice@example.com', role: 'admin', joinedAt: '2026-11-01T10:00:00Z' },
  { userId: 2, email: 'olga@example.com', role: 'owner', joinedAt: '2026-10-01T10:00:00Z' },
  { userId: 3, email: 'bob@example.com', role: 'viewer', joinedAt: '2026-11-02T10:00:00Z' },
]

function stub(role: Role, handlers: Handlers = {}) {
  return stubFetch({
    'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role } }),
    'GET /api/workspaces': () => json([personal, { ...agency, role }]),
    'GET /api/workspaces/9/members': () => json(members.map((m) => (m.userId === 1 ? { ...m, role } : m))),
    'GET /api/workspaces/9/invitations': () =>
      json([{ id: 4, email: 'carol@example.com', role: 'editor', createdAt: '2026-11-20T10:00:00Z', expiresAt: '2026-11-27T10:00:00Z' }]),
    ...handlers,
  })
}

const sent = (mock: ReturnType<typeof stubFetch>, method: string, url: string) =>
  mock.mock.calls.filter(([u, init]) => u === url && init?.method === method).map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : null))

const row = (list: HTMLElement, text: string) => {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(text))
  if (!item) throw new Error(`no row for ${text}`)
  return item
}

describe('workspace switcher', () => {
  it('names the active workspace in the header and activates another, refetching the session', async () => {
    const mock = stub('admin', { 'POST /api/workspaces/1/activate': () => json(personal) })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Workspace: Agency' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByRole('menuitem', { name: /Agency/ })).toHaveAttribute('aria-current', 'true')
    expect(within(menu).getByRole('menuitem', { name: 'Members' })).toHaveAttribute('href', '/workspace/members')
    const userFetches = () => mock.mock.calls.filter(([u]) => u === '/api/user').length
    const before = userFetches()
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Personal/ }))
    await waitFor(() => expect(sent(mock, 'POST', '/api/workspaces/1/activate')).toHaveLength(1))
    await waitFor(() => expect(userFetches()).toBeGreaterThan(before))
    expect(await screen.findByText('Workspace switched')).toBeInTheDocument()
  })

  it('creates a team workspace and makes it active', async () => {
    const mock = stub('owner', {
      'POST /api/workspaces': () => json({ id: 12, name: 'Bakery', role: 'owner', personal: false }, 201),
      'POST /api/workspaces/12/activate': () => json({ id: 12, name: 'Bakery', role: 'owner', personal: false }),
    })
    renderApp('/faq')
    await userEvent.click(await screen.findByRole('button', { name: 'Workspace: Agency' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Create workspace' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create workspace' })
    await userEvent.type(within(dialog).getByLabelText('Workspace name'), '  Bakery ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create workspace' }))
    await waitFor(() => expect(sent(mock, 'POST', '/api/workspaces/12/activate')).toHaveLength(1))
    expect(sent(mock, 'POST', '/api/workspaces')).toEqual([{ name: 'Bakery' }])
    expect(await screen.findByText('Workspace created')).toBeInTheDocument()
  })
})

describe('members page', () => {
  it('keeps focus on the page when a removed row takes its button with it: the list heading gets it', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    let gone = new Set<number>()
    let revoked = false
    stub('admin', {
      'GET /api/workspaces/9/members': () => json(members.filter((m) => !gone.has(m.userId))),
      'DELETE /api/workspaces/9/members/3': () => {
        gone = new Set([3])
        return new Response(null, { status: 204 })
      },
      'GET /api/workspaces/9/invitations': () =>
        json(revoked ? [] : [{ id: 4, email: 'carol@example.com', role: 'editor', createdAt: '2026-11-20T10:00:00Z', expiresAt: '2026-11-27T10:00:00Z' }]),
      'DELETE /api/workspaces/9/invitations/4': () => {
        revoked = true
        return new Response(null, { status: 204 })
      },
    })
    renderApp('/workspace/members')
    const people = await screen.findByRole('list', { name: 'Members' })
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(3))
    await userEvent.click(within(row(people, 'bob@example.com')).getByRole('button', { name: 'Remove bob@example.com' }))
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(2))
    expect(screen.getByRole('heading', { name: 'People' })).toHaveFocus()

    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the invitation of carol@example.com' }))
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Pending invitations' })).toHaveFocus()
  })

  it('lets an admin invite, change roles of non-owners, remove them and revoke invitations', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const mock = stub('admin', {
      'POST /api/workspaces/9/invitations': () => json({ id: 5, email: 'dan@example.com', role: 'editor' }, 201),
      'PATCH /api/workspaces/9/members/3': () => new Response(null, { status: 204 }),
      'DELETE /api/workspaces/9/members/3': () => new Response(null, { status: 204 }),
      'DELETE /api/workspaces/9/invitations/4': () => new Response(null, { status: 204 }),
    })
    renderApp('/workspace/members')
    const people = await screen.findByRole('list', { name: 'Members' })
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(3))
    // An admin cannot touch an owner, nor hand out the owner role.
    expect(within(row(people, 'olga@example.com')).queryByRole('combobox')).not.toBeInTheDocument()
    expect(within(row(people, 'olga@example.com')).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument()
    const bobRole = within(row(people, 'bob@example.com')).getByRole('combobox', { name: 'Role of bob@example.com' })
    expect(within(bobRole).queryByRole('option', { name: 'Owner' })).not.toBeInTheDocument()
    expect(within(row(people, 'alice@example.com')).getByRole('button', { name: 'Leave' })).toBeInTheDocument()

    // Choosing a role only stages it; Change role commits it, and focus stays on the select.
    await userEvent.selectOptions(bobRole, 'editor')
    expect(sent(mock, 'PATCH', '/api/workspaces/9/members/3')).toEqual([])
    await userEvent.click(within(row(people, 'bob@example.com')).getByRole('button', { name: 'Change role of bob@example.com' }))
    await waitFor(() => expect(sent(mock, 'PATCH', '/api/workspaces/9/members/3')).toEqual([{ role: 'editor' }]))
    expect(await screen.findByText('Role changed')).toBeInTheDocument()
    expect(bobRole).toHaveFocus()

    await userEvent.click(within(row(people, 'bob@example.com')).getByRole('button', { name: 'Remove bob@example.com' }))
    await waitFor(() => expect(sent(mock, 'DELETE', '/api/workspaces/9/members/3')).toHaveLength(1))

    await userEvent.type(screen.getByLabelText('Email'), 'not-an-address')
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }))
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Email'))
    await userEvent.type(screen.getByLabelText('Email'), 'dan@example.com')
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'editor')
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }))
    await waitFor(() => expect(sent(mock, 'POST', '/api/workspaces/9/invitations')).toEqual([{ email: 'dan@example.com', role: 'editor' }]))
    expect(await screen.findByText('Invitation sent')).toBeInTheDocument()

    const pending = screen.getByRole('list', { name: 'Pending invitations' })
    await userEvent.click(within(await within(pending).findByRole('listitem')).getByRole('button', { name: 'Revoke the invitation of carol@example.com' }))
    await waitFor(() => expect(sent(mock, 'DELETE', '/api/workspaces/9/invitations/4')).toHaveLength(1))
  })

  it('asks before making someone an owner, and changes nothing when declined', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false)
    const mock = stub('owner', { 'PATCH /api/workspaces/9/members/3': () => new Response(null, { status: 204 }) })
    renderApp('/workspace/members')
    const people = await screen.findByRole('list', { name: 'Members' })
    const bobRole = await within(people).findByRole('combobox', { name: 'Role of bob@example.com' })
    await userEvent.selectOptions(bobRole, 'owner')
    const change = within(row(people, 'bob@example.com')).getByRole('button', { name: 'Change role of bob@example.com' })
    await userEvent.click(change)
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Make bob@example.com an owner of Agency?'))
    expect(sent(mock, 'PATCH', '/api/workspaces/9/members/3')).toEqual([])
    // Back to the role held: nothing left to change.
    await userEvent.selectOptions(bobRole, 'viewer')
    expect(within(row(people, 'bob@example.com')).queryByRole('button', { name: /Change role/ })).not.toBeInTheDocument()
    await userEvent.selectOptions(bobRole, 'owner')
    confirm.mockReturnValue(true)
    await userEvent.click(within(row(people, 'bob@example.com')).getByRole('button', { name: 'Change role of bob@example.com' }))
    await waitFor(() => expect(sent(mock, 'PATCH', '/api/workspaces/9/members/3')).toEqual([{ role: 'owner' }]))
  })

  it('shows the server refusing an invitation on the field', async () => {
    stub('owner', {
      'POST /api/workspaces/9/invitations': () =>
        json({ message: 'Please enter a valid email address', errors: { email: 'Please enter a valid email address' } }, 400),
    })
    renderApp('/workspace/members')
    await userEvent.type(await screen.findByLabelText('Email'), 'x@y.zz')
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }))
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
    // Owners may make owners.
    expect(within(screen.getByLabelText('Role')).getByRole('option', { name: 'Owner' })).toBeInTheDocument()
  })

  it('focuses the email field, marked and described, when the address is already invited', async () => {
    stub('owner', { 'POST /api/workspaces/9/invitations': () => json({ message: 'Already invited as Editor' }, 409) })
    renderApp('/workspace/members')
    const email = await screen.findByLabelText('Email')
    await userEvent.type(email, 'carol@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }))
    expect(await screen.findByText('Already invited as Editor')).toBeInTheDocument()
    expect(email).toHaveFocus()
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('Already invited as Editor')
  })

  it('offers no Leave in the personal workspace', async () => {
    stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: { id: 1, name: 'Personal', role: 'owner' } }),
      'GET /api/workspaces': () => json([personal, agency]),
      'GET /api/workspaces/1/members': () => json([{ userId: 1, email: 'alice@example.com', role: 'owner', joinedAt: '2026-11-01T10:00:00Z' }]),
      'GET /api/workspaces/1/invitations': () => json([]),
    })
    renderApp('/workspace/members')
    const people = await screen.findByRole('list', { name: 'Members' })
    await within(people).findByText(/alice@example.com/)
    // The list of workspaces has said which one is personal by the time the invitations show.
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete workspace' })).not.toBeInTheDocument())
    expect(within(people).queryByRole('button', { name: 'Leave' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Rename workspace' })).toBeInTheDocument()
  })

  it('shows a viewer the members only: no invitation form, role pickers, removals or pending list', async () => {
    const mock = stub('viewer')
    renderApp('/workspace/members')
    const people = await screen.findByRole('list', { name: 'Members' })
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(3))
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument()
    expect(within(people).queryByRole('combobox')).not.toBeInTheDocument()
    expect(within(people).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Pending invitations' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => u === '/api/workspaces/9/invitations')).toBe(false)
  })
})

describe('two-factor requirement', () => {
  it('gives the owner a switch that PATCHes require2fa and shows the server refusing it', async () => {
    let on = false
    const mock = stub('owner', {
      'GET /api/user': () => json({ ...alice, workspace: { id: 9, name: 'Agency', role: 'owner', require2fa: on } }),
      'PATCH /api/workspaces/9': (init) => {
        const body = JSON.parse(String(init?.body)) as { require2fa: boolean }
        if (sent(mock, 'PATCH', '/api/workspaces/9').length === 1) {
          const message = 'Set up two-factor authentication for your own account in Account Settings before requiring it of members'
          return json({ message, errors: { require2fa: message } }, 400)
        }
        on = body.require2fa
        return json({ ...agency, role: 'owner', require2fa: on })
      },
    })
    renderApp('/workspace/members')
    // The owner's sign-in rules are on the Security view.
    await userEvent.click(await screen.findByRole('link', { name: 'Security' }))
    const toggle = await screen.findByRole('switch', { name: 'Require two-factor authentication' })
    expect(toggle).toHaveAttribute('aria-checked', 'false')
    await userEvent.click(toggle)
    expect(await screen.findByText(/before requiring it of members/)).toBeInTheDocument()
    expect(toggle).toHaveAttribute('aria-checked', 'false')
    await userEvent.click(toggle)
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Require two-factor authentication' })).toHaveAttribute('aria-checked', 'true'))
    expect(sent(mock, 'PATCH', '/api/workspaces/9')).toEqual([{ require2fa: true }, { require2fa: true }])
    expect(screen.queryByText(/before requiring it of members/)).not.toBeInTheDocument()
  })

  it("lets the owner turn domain capture on, shows the server's refusal at the domain, and off (issue 33)", async () => {
    let autoJoin: { domain: string; role: string } | null = null
    const mock = stub('owner', {
      'GET /api/workspaces': () => json([personal, { ...agency, role: 'owner', autoJoin }]),
      'PUT /api/workspaces/9/auto-join': (init) => {
        const body = JSON.parse(String(init?.body)) as { domain: string; role: string }
        if (body.domain === 'other.test') {
          const message = 'Verify other.test, or a domain under it, as a custom domain of this workspace first'
          return json({ message, errors: { domain: message } }, 400)
        }
        autoJoin = body
        return json({ ...agency, role: 'owner', autoJoin })
      },
      'DELETE /api/workspaces/9/auto-join': () => {
        autoJoin = null
        return json({ ...agency, role: 'owner', autoJoin })
      },
    })
    renderApp('/workspace/members?tab=security')
    const domain = await screen.findByLabelText('E-mail domain')
    await userEvent.type(domain, 'other.test')
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText(/Verify other.test/)).toBeInTheDocument()
    expect(domain).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(domain)
    await userEvent.type(domain, 'acme.test')
    await userEvent.selectOptions(screen.getByLabelText('Joins as'), 'viewer')
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText('acme.test')).toBeInTheDocument()
    expect(sent(mock, 'PUT', '/api/workspaces/9/auto-join')).toEqual([
      { domain: 'other.test', role: 'editor' },
      { domain: 'acme.test', role: 'viewer' },
    ])
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }))
    expect(await screen.findByLabelText('E-mail domain')).toBeInTheDocument()
  })

  it("sets up SAML single sign-on: shows the SP's addresses, sends the metadata, group roles and switches, and the server's refusal at its field (issue 33)", async () => {
    const sp = { spEntityId: 'http://localhost:8080/auth/saml/9/metadata', spMetadataUrl: 'http://localhost:8080/auth/saml/9/metadata',
      acsUrl: 'http://localhost:8080/auth/saml/9/acs', loginUrl: 'http://localhost:8080/auth/saml/9/login' }
    let settings: Record<string, unknown> = { configured: false, roleMapping: {}, enforceSso: false, allowIdpInitiated: false, breakGlassUserId: null, ...sp }
    const mock = stub('owner', {
      'GET /api/workspaces/9/sso': () => json(settings),
      'PUT /api/workspaces/9/sso': (init) => {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>
        if (body.idpMetadataXml === 'nope') {
          const message = 'The metadata is not a SAML EntityDescriptor'
          return json({ message, errors: { idpMetadataXml: message } }, 400)
        }
        settings = { ...settings, ...body, configured: true, idpEntityId: 'http://www.okta.com/exk1' }
        return json(settings)
      },
    })
    renderApp('/workspace/members?tab=security')
    expect(await screen.findByText('http://localhost:8080/auth/saml/9/acs')).toBeInTheDocument()
    const xml = screen.getByLabelText('Metadata XML')
    await userEvent.type(xml, 'nope')
    await userEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }))
    expect(await screen.findByText('The metadata is not a SAML EntityDescriptor')).toBeInTheDocument()
    expect(xml).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(xml)
    await userEvent.type(xml, '<md:EntityDescriptor/>')
    await userEvent.click(screen.getByRole('button', { name: 'Map a group' }))
    await userEvent.type(screen.getByLabelText('Group 1'), 'qr-admins')
    await userEvent.selectOptions(screen.getByLabelText('Role for group 1'), 'admin')
    await userEvent.click(screen.getByRole('checkbox', { name: /Require single sign-on/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }))
    expect(await screen.findByText('http://www.okta.com/exk1')).toBeInTheDocument()
    expect(sent(mock, 'PUT', '/api/workspaces/9/sso')[1]).toEqual({
      idpMetadataXml: '<md:EntityDescriptor/>', roleMapping: { 'qr-admins': 'admin' }, defaultRole: 'viewer', enforceSso: true, allowIdpInitiated: false,
    })
    expect(screen.getByRole('button', { name: 'Remove single sign-on' })).toBeInTheDocument()
  })

  it('makes a SCIM token and shows it once with the base URL (issue 33)', async () => {
    const mock = stub('owner', {
      'GET /api/workspaces/9/sso': () => json({ configured: false, roleMapping: {}, enforceSso: false, allowIdpInitiated: false, breakGlassUserId: null }),
      'POST /api/workspaces/9/scim-token': () => json({ token: 'scim_abc123', baseUrl: 'http://localhost:8080/scim/v2/9' }, 201),
    })
    renderApp('/workspace/members?tab=security')
    await userEvent.click(await screen.findByRole('button', { name: 'Make a SCIM token' }))
    expect(await screen.findByText('scim_abc123')).toBeInTheDocument()
    expect(screen.getByText('http://localhost:8080/scim/v2/9')).toBeInTheDocument()
    expect(sent(mock, 'POST', '/api/workspaces/9/scim-token')).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Replace the token' })).toBeInTheDocument()
  })

  it('is not offered to admins', async () => {
    stub('admin')
    renderApp('/workspace/members')
    await screen.findByRole('list', { name: 'Members' })
    expect(await screen.findByRole('button', { name: 'Rename workspace' })).toBeInTheDocument()
    expect(screen.queryByRole('switch', { name: 'Require two-factor authentication' })).not.toBeInTheDocument()
  })
})

describe('alert e-mails', () => {
  it("gives owners and admins their own switch, PUT to the workspace's alert-emails", async () => {
    let enabled = true
    const mock = stub('admin', {
      'GET /api/workspaces': () => json([personal, { ...agency, alertEmails: enabled }]),
      'PUT /api/workspaces/9/alert-emails': (init) => {
        enabled = (JSON.parse(String(init?.body)) as { enabled: boolean }).enabled
        return json({ ...agency, alertEmails: enabled })
      },
    })
    renderApp('/workspace/members')
    const toggle = await screen.findByRole('switch', { name: 'E-mail me alerts' })
    await waitFor(() => expect(toggle).toBeEnabled())
    expect(toggle).toHaveAttribute('aria-checked', 'true')
    await userEvent.click(toggle)
    await waitFor(() => expect(screen.getByRole('switch', { name: 'E-mail me alerts' })).toHaveAttribute('aria-checked', 'false'))
    expect(sent(mock, 'PUT', '/api/workspaces/9/alert-emails')).toEqual([{ enabled: false }])
  })

  it('is not offered to editors and viewers, who are never mailed', async () => {
    stub('viewer')
    renderApp('/workspace/members')
    await screen.findByRole('list', { name: 'Members' })
    expect(screen.queryByRole('switch', { name: 'E-mail me alerts' })).not.toBeInTheDocument()
  })
})

describe('activity page', () => {
  it('lists the audit log newest first, pages by the cursor and links the CSV', async () => {
    const entry = (n: number, action: string, details: unknown = {}) => ({
      at: `2026-11-2${n}T10:00:00Z`,
      actor: { type: 'user', id: 1, email: 'alice@example.com' },
      action,
      target: { type: 'code', id: n, name: `Code ${n}` },
      details,
    })
    const mock = stub('owner', {
      'GET /api/workspaces/9/audit-log': (_, url) =>
        url.searchParams.get('cursor') === 'older'
          ? json({ items: [entry(1, 'code.created')], nextCursor: null })
          : json({ items: [entry(3, 'code.renamed', { name: { before: 'Old', after: 'New' } }), { ...entry(2, 'code.paused'), actor: { type: 'api_key', id: 6, email: 'bot@example.com' } }], nextCursor: 'older' }),
    })
    renderApp('/workspace/activity')
    const log = await screen.findByRole('list', { name: 'Activity' })
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent('alice@example.com renamed the code Code 3')
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent('name: Old → New')
    expect(within(log).getAllByRole('listitem')[1]).toHaveTextContent('API key #6 (bot@example.com) paused Code 2')
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/workspaces/9/audit-log.csv')
    await userEvent.click(screen.getByRole('button', { name: 'Show older' }))
    await waitFor(() => expect(within(log).getAllByRole('listitem')).toHaveLength(3))
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument()
    const urls = mock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/workspaces/9/audit-log?'))
    expect(urls).toEqual(['/api/workspaces/9/audit-log?limit=50', '/api/workspaces/9/audit-log?limit=50&cursor=older'])
  })

  it('tells an editor the activity is for owners and admins, without asking the server', async () => {
    const mock = stub('editor')
    renderApp('/workspace/activity')
    expect(await screen.findByText('Only owners and admins of Agency can see its activity.')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u]) => String(u).includes('audit-log'))).toBe(false)
  })

  it('words the details of an entry', () => {
    expect(describeDetails({ destination: { before: 'https://a.example', after: 'https://b.example' } })).toBe('destination: https://a.example → https://b.example')
    expect(describeDetails({ duplicateOf: 4 })).toBe('duplicateOf: 4')
    expect(describeDetails({ tags: { before: [], after: ['Print', 'Spring'] } })).toBe('tags: (none) → Print, Spring')
    expect(describeDetails(null)).toBe('')
  })
})

describe('accepting an invitation', () => {
  const preview = () => json({ workspaceName: 'Agency', role: 'editor', invitedBy: 'Ann Lee', expiresAt: '2026-12-08T10:00:00Z' })

  it('sends a signed-out visitor to sign in or register and back to the link', async () => {
    stubFetch({ 'GET /api/user': () => new Response('', { status: 401 }), 'GET /api/invitations/preview': preview })
    renderApp('/invitations/accept?token=tok123')
    const back = encodeURIComponent('/invitations/accept?token=tok123')
    expect(await screen.findByRole('link', { name: 'Sign in to accept' })).toHaveAttribute('href', `/auth?next=${back}`)
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', `/auth?mode=register&next=${back}`)
  })

  it('goes to ?next= after signing in', async () => {
    let signedIn = false
    stubFetch({
      'GET /api/user': () => (signedIn ? json(alice) : new Response('', { status: 401 })),
      'POST /api/login': () => {
        signedIn = true
        return json(alice)
      },
    })
    const { router } = renderApp(`/auth?next=${encodeURIComponent('/invitations/accept?token=tok123')}`)
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret-1')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/invitations/accept'))
    expect(router.state.location.search).toBe('?token=tok123')
  })

  it('never follows ?next= off the site', async () => {
    stubFetch({ 'GET /api/user': () => json(alice) })
    const { router } = renderApp('/auth?next=//evil.example/x')
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })

  it('accepts on the button and says which workspace was joined', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/invitations/accept': () => json({ id: 9, name: 'Agency', role: 'viewer', personal: false }),
    })
    renderApp('/invitations/accept?token=tok123')
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByText('You joined Agency as viewer.')).toBeInTheDocument()
    expect(sent(mock, 'POST', '/api/invitations/accept')).toEqual([{ token: 'tok123' }])
    expect(screen.getByRole('link', { name: 'Go to the shared QR codes' })).toHaveAttribute('href', '/dashboard')
  })

  it('explains an invitation for another address and offers to sign out', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/invitations/accept': () =>
        json({ message: 'This invitation was sent to another email address. Sign in with that address to accept it.' }, 403),
      'POST /api/logout': () => new Response(null, { status: 200 }),
      'GET /api/invitations/preview': preview,
    })
    renderApp('/invitations/accept?token=tok123')
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByText('This invitation is for another email address')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    expect(await screen.findByRole('link', { name: 'Sign in to accept' })).toBeInTheDocument()
  })

  it('lets an unconfirmed address accept at once: the link proved it', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json({ ...alice, emailVerified: false }),
      'POST /api/invitations/accept': () => json({ id: 9, name: 'Agency', role: 'editor', personal: false }),
    })
    renderApp('/invitations/accept?token=tok123&email=alice%40example.com')
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByText('You joined Agency as editor.')).toBeInTheDocument()
    expect(screen.queryByText(/confirm/i)).not.toBeInTheDocument()
    expect(sent(mock, 'POST', '/api/invitations/accept')).toEqual([{ token: 'tok123' }])
  })

  it('names the workspace, the role and the sender before signing in', async () => {
    const mock = stubFetch({ 'GET /api/user': () => new Response('', { status: 401 }), 'GET /api/invitations/preview': preview })
    renderApp('/invitations/accept?token=tok%2B123')
    await waitFor(() => expect(screen.getByTestId('invitation-summary')).toHaveTextContent('Ann Lee invited you to join Agency as an editor.'))
    expect(screen.getByRole('link', { name: 'Sign in to accept' })).toBeInTheDocument()
    expect(mock.mock.calls.some(([url]) => String(url).endsWith('/api/invitations/preview?token=tok%2B123'))).toBe(true)
  })

  it('says a dead link is dead before anyone signs in for it', async () => {
    stubFetch({
      'GET /api/user': () => new Response('', { status: 401 }),
      'GET /api/invitations/preview': () => json({ message: 'This invitation is invalid or has expired' }, 404),
    })
    renderApp('/invitations/accept?token=old')
    expect(await screen.findByText('This invitation can no longer be used')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Sign in to accept' })).not.toBeInTheDocument()
  })

  it("fills in the invited address on the sign-up and sign-in forms from the link's email", async () => {
    stubFetch({ 'GET /api/user': () => new Response('', { status: 401 }), 'GET /api/invitations/preview': preview })
    renderApp('/invitations/accept?token=tok123&email=bob%40example.com')
    const back = encodeURIComponent('/invitations/accept?token=tok123&email=bob%40example.com')
    const register = await screen.findByRole('link', { name: 'Create an account' })
    expect(register).toHaveAttribute('href', `/auth?mode=register&next=${back}&email=bob%40example.com`)
    await userEvent.click(register)
    expect(await screen.findByLabelText('Email')).toHaveValue('bob@example.com')
    await userEvent.click(screen.getByRole('button', { name: /sign in/i }))
    expect(await screen.findByLabelText('Email')).toHaveValue('bob@example.com')
  })

  it('says an expired or used link can no longer be used', async () => {
    stubFetch({
      'GET /api/user': () => json(alice),
      'POST /api/invitations/accept': () => json({ message: 'This invitation is invalid or has expired' }, 404),
    })
    renderApp('/invitations/accept?token=old')
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByText('This invitation can no longer be used')).toBeInTheDocument()
    expect(screen.getByText(/This invitation is invalid or has expired/)).toBeInTheDocument()
  })

  it('says a link without a token is incomplete', async () => {
    stubFetch({ 'GET /api/user': () => json(alice) })
    renderApp('/invitations/accept')
    expect(await screen.findByText('This link is incomplete. Please open the link from your e-mail again.')).toBeInTheDocument()
  })
})

describe('a link into a workspace', () => {
  it('opens the workspace of ?workspace= (the alert mails link so) and names it over the dashboard', async () => {
    let active = { id: 1, name: 'Personal', role: 'owner' as const }
    const mock = stubFetch({
      'GET /api/user': () => json({ ...alice, workspace: active }),
      'GET /api/codes': () => json({ items: [], nextCursor: null }),
      'POST /api/workspaces/9/activate': () => {
        active = { id: 9, name: 'Acme Marketing', role: 'owner' }
        return json(active)
      },
    })
    const { router } = renderApp('/dashboard?workspace=9')
    await waitFor(() => expect(screen.getByTestId('dashboard-workspace')).toHaveTextContent('Acme Marketing'))
    expect(mock.mock.calls.filter(([u, init]) => u === '/api/workspaces/9/activate' && init?.method === 'POST')).toHaveLength(1)
    await waitFor(() => expect(router.state.location.search).toBe(''))
    await waitFor(() => expect(document.title).toContain('Acme Marketing'))
  })
})


import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

const signedOut = () => json({ message: 'Not authenticated' }, 401)
/** The site's config with Google sign-in configured. */
const googleOn = () => json({ isDefault: true, googleSignIn: true })

function bodyOf(mock: ReturnType<typeof stubFetch>, url: string) {
  const call = mock.mock.calls.find(([u]) => u === url)
  return call ? (JSON.parse(String(call[1]?.body)) as unknown) : undefined
}

describe('login form', () => {
  it('has the fields and actions of the contract', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/white-label/config': googleOn })
    renderApp('/auth')
    expect(await screen.findByLabelText('Email')).toHaveAttribute('type', 'email')
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password')
    expect(screen.getByRole('button', { name: 'Forgot my password' })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create a free account' })).toBeInTheDocument()
  })

  it('asks for the e-mail when the password is forgotten and shows the server answer', async () => {
    const answer = 'If an account uses this email address, we have sent it a link to choose a new password. The link works once, for 1 hour.'
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/forgot-password': () => json({ message: answer }) })
    renderApp('/auth')
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot my password' }))
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }))
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Email'), 'alice@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }))
    expect(await screen.findByText(answer)).toBeInTheDocument()
    expect(bodyOf(mock, '/api/forgot-password')).toEqual({ email: 'alice@example.com' })
    await userEvent.click(screen.getByRole('button', { name: 'Back to Sign In' }))
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
  })

  it('shows the required messages and sends nothing', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut })
    renderApp('/auth')
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Username is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    // Only reads: the session, and the site's config (whether to offer Google).
    expect(mock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([])
  })

  it('asks for the second factor after a right password and signs in with the code', async () => {
    const mock = stubFetch({
      'GET /api/user': signedOut,
      'POST /api/login': () => json({ twoFactorRequired: true, methods: ['totp', 'recovery'] }),
      'POST /api/login/2fa': () => json(alice),
    })
    const { router } = renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument()
    expect(screen.queryByText('Login successful')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Welcome back, alice@example.com!')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(bodyOf(mock, '/api/login/2fa')).toEqual({ code: '123456' })
  })

  it('takes a recovery code instead and shows a wrong one on the field', async () => {
    const mock = stubFetch({
      'GET /api/user': signedOut,
      'POST /api/login': () => json({ twoFactorRequired: true, methods: ['totp', 'recovery'] }),
      'POST /api/login/2fa': () => json({ message: 'Invalid recovery code', errors: { recoveryCode: 'Invalid recovery code' } }, 401),
    })
    renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }))
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-fghij')
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Login failed')).toBeInTheDocument()
    expect(screen.getByLabelText('Recovery code')).toHaveAttribute('aria-invalid', 'true')
    expect(bodyOf(mock, '/api/login/2fa')).toEqual({ recoveryCode: 'abcde-fghij' })
  })

  it('shows the single sign-on button by its configured name only when it is on', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/auth/providers': () => json({ oidc: { name: 'Acme SSO' } }) })
    renderApp('/auth')
    expect(await screen.findByRole('button', { name: 'Acme SSO' })).toBeInTheDocument()
  })

  it("shows a closed instance's policy instead of the registration form (issue 33)", async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/auth/providers': () => json({ oidc: null, signup: 'closed', signupDomains: [] }) })
    renderApp('/auth?mode=register')
    expect(await screen.findByText('This instance does not take new accounts. Ask its administrator for one.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Go to sign in' }))
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
  })

  it('keeps password sign-in for administrators only when passwords are off (issue 33)', async () => {
    const config = () => json({ isDefault: true, googleSignIn: false, passwordLogin: false, publicGenerator: false })
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/white-label/config': config, 'GET /api/auth/providers': () => json({ oidc: { name: 'Acme SSO' }, signup: 'open' }) })
    const { router } = renderApp('/auth')
    expect(await screen.findByText('Password sign-in is off on this instance: sign in with single sign-on or a passkey.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Acme SSO' })).toBeInTheDocument()
    expect(screen.getByText('Administrator sign-in with a password')).toBeInTheDocument()
    expect(screen.getByLabelText('Password')).not.toBeVisible()
    await userEvent.click(screen.getByText('Administrator sign-in with a password'))
    expect(screen.getByLabelText('Password')).toBeVisible()
    await act(() => router.navigate('/auth?mode=register'))
    expect(await screen.findByText(/Registration with a password is off on this instance/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument()
    // The landing page asks visitors to sign in instead of showing the generator.
    await act(() => router.navigate('/'))
    expect(await screen.findByText('Sign in to make QR codes on this instance.')).toBeInTheDocument()
  })

  it('tells who may register, and why a provider sign-up was refused', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/auth/providers': () => json({ oidc: null, signup: 'open', signupDomains: ['acme.test'] }) })
    renderApp('/auth?mode=register&signup=signup_invite_only')
    expect(await screen.findByText('New accounts are for addresses at acme.test only.')).toBeInTheDocument()
    expect(screen.getByText(/by invitation only: ask a workspace admin/)).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toBeInTheDocument()
  })

  it('says to wait when a single sign-on start was over the address limit (?sso=busy)', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/auth/providers': () => json({ oidc: null, signup: 'open' }) })
    renderApp('/auth?sso=busy')
    expect(await screen.findByText('Too many sign-ins started from this address. Please try again in a minute.')).toBeInTheDocument()
  })

  it('says when a workspace link has no single sign-on (?sso=missing)', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/auth/providers': () => json({ oidc: null, signup: 'open' }) })
    renderApp('/auth?sso=missing')
    expect(await screen.findByText('Single sign-on is not set up for this workspace. Sign in another way, or ask its owner.')).toBeInTheDocument()
  })

  it('signs in: e-mail sent as username, welcome toast, redirect to /', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/login': () => json(alice) })
    const { router } = renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Login successful')).toBeInTheDocument()
    expect(screen.getByText('Welcome back, alice@example.com!')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeInTheDocument()
    expect(bodyOf(mock, '/api/login')).toEqual({ username: 'alice@example.com', password: 'secret1' })
  })

  it("shows the server's message when login fails", async () => {
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/login': () => json({ message: 'Too many attempts' }, 429) })
    renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Login failed')).toBeInTheDocument()
    expect(screen.getByText('Too many attempts')).toBeInTheDocument()
  })

  it("falls back to 'Invalid username or password'", async () => {
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/login': () => new Response('', { status: 401 }) })
    renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Invalid username or password')).toBeInTheDocument()
  })

  it('offers no Google button when Google sign-in is not configured', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'GET /api/white-label/config': () => json({ isDefault: true, googleSignIn: false }) })
    renderApp('/auth')
    await screen.findByRole('button', { name: 'Sign In' })
    await waitFor(() => expect(mock.mock.calls.some(([u]) => u === '/api/white-label/config')).toBe(true))
    expect(screen.queryByRole('button', { name: /Google/ })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create a free account' }))
    await screen.findByRole('button', { name: 'Create Account' })
    expect(screen.queryByRole('button', { name: /Google/ })).not.toBeInTheDocument()
  })

  it('navigates the whole page to /auth/google', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/white-label/config': googleOn })
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
    renderApp('/auth')
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Google' }))
    expect(assign).toHaveBeenCalledWith('/auth/google')
  })
})

describe('register form', () => {
  async function openRegister() {
    await userEvent.click(await screen.findByRole('button', { name: 'Create a free account' }))
    await screen.findByRole('button', { name: 'Create Account' })
  }

  it('switches back and forth', async () => {
    stubFetch({ 'GET /api/user': signedOut, 'GET /api/white-label/config': googleOn })
    renderApp('/auth')
    await openRegister()
    expect(await screen.findByRole('button', { name: 'Sign up with Google' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('button', { name: 'Create a free account' })).toBeInTheDocument()
  })

  it('carries the address typed in one form to the other, without putting it in the address bar', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    const { router } = renderApp('/auth')
    await userEvent.type(await screen.findByLabelText('Email'), 'carol@example.com')
    await openRegister()
    expect(screen.getByLabelText('Email')).toHaveValue('carol@example.com')
    expect(router.state.location.search).toBe('?mode=register')
    await userEvent.clear(screen.getByLabelText('Email'))
    await userEvent.type(screen.getByLabelText('Email'), 'dave@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    await screen.findByRole('button', { name: 'Create a free account' })
    expect(screen.getByLabelText('Email')).toHaveValue('dave@example.com')
    expect(router.state.location.search).toBe('')
  })

  /**
   * Clicks as a browser does when it is busy: React renders what the click
   * itself changed (its microtasks run), but not yet the navigation's
   * transition, which waits for a task of its own. testing-library's act()
   * would render that too, before the test could look.
   */
  async function clickBeforeTransitions(button: HTMLElement) {
    const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
    const actEnvironment = g.IS_REACT_ACT_ENVIRONMENT
    g.IS_REACT_ACT_ENVIRONMENT = false
    try {
      button.click()
      for (let i = 0; i < 10; i++) await Promise.resolve()
    } finally {
      g.IS_REACT_ACT_ENVIRONMENT = actEnvironment
    }
  }

  it('shows the other form at once, focused, so what is typed right after the switch lands in it', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    const user = userEvent.setup()
    const { router } = renderApp('/auth')
    await user.type(await screen.findByLabelText('Email'), 'carol@example.com')
    await clickBeforeTransitions(screen.getByRole('button', { name: 'Create a free account' }))
    // The sign-in form is already gone: the register form takes the next keystrokes.
    expect(document.getElementById('login-username')).toBeNull()
    expect(document.getElementById('register-email')).toHaveValue('carol@example.com')
    expect(document.getElementById('register-password')).toHaveFocus()
    await user.keyboard('secret1')
    expect(screen.getByLabelText('Password')).toHaveValue('secret1')
    expect(screen.getByLabelText('Email')).toHaveValue('carol@example.com')
    expect(router.state.location.search).toBe('?mode=register')

    // And back: with the address emptied, the sign-in form's Email field takes the keystrokes.
    await user.clear(screen.getByLabelText('Email'))
    await clickBeforeTransitions(screen.getByRole('button', { name: 'Sign In' }))
    expect(document.getElementById('register-email')).toBeNull()
    expect(document.getElementById('login-username')).toHaveFocus()
    await user.keyboard('dave@example.com')
    expect(screen.getByLabelText('Email')).toHaveValue('dave@example.com')
    expect(screen.getByRole('button', { name: 'Create a free account' })).toBeInTheDocument()
    expect(router.state.location.search).toBe('')
  })

  it('opens on ?mode=register', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    renderApp('/auth?mode=register')
    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeInTheDocument()
  })

  it('validates e-mail and password length', async () => {
    stubFetch({ 'GET /api/user': signedOut })
    renderApp('/auth')
    await openRegister()
    await userEvent.type(screen.getByLabelText('Email'), 'nope')
    await userEvent.type(screen.getByLabelText('Password'), '12345')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument()
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument()
  })

  it('registers with the full payload and welcomes the user', async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/register': () => json(alice, 201) })
    const { router } = renderApp('/auth')
    await openRegister()
    await userEvent.type(screen.getByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Registration successful')).toBeInTheDocument()
    expect(screen.getByText('Welcome, alice@example.com!')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(bodyOf(mock, '/api/register')).toEqual({
      username: 'alice@example.com',
      firstName: '',
      lastName: '',
      email: 'alice@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    })
  })

  it("sends the token of the invitation that led here, which confirms the address, and goes back to it", async () => {
    const mock = stubFetch({ 'GET /api/user': signedOut, 'POST /api/register': () => json({ ...alice, emailVerified: true }, 201) })
    const next = encodeURIComponent('/invitations/accept?token=tok_123&email=alice%40example.com')
    const { router } = renderApp(`/auth?mode=register&next=${next}&email=alice%40example.com`)
    expect(await screen.findByLabelText('Email')).toHaveValue('alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/invitations/accept'))
    expect(bodyOf(mock, '/api/register')).toMatchObject({ email: 'alice@example.com', invitationToken: 'tok_123' })
  })

  it('signs nobody in when the e-mail has an unconfirmed account, and says a claim link was mailed', async () => {
    const claim = 'This email already has an account that has not been confirmed. We have sent a link to that address: follow it to choose your password and sign in.'
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/register': () => json({ message: claim }, 202) })
    const { router } = renderApp('/auth?mode=register')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Check your email')).toBeInTheDocument()
    expect(screen.getAllByText(claim).length).toBeGreaterThan(0)
    expect(screen.queryByText('Registration successful')).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/auth')
  })

  it("shows the server's message when registration fails, else the fallback", async () => {
    let answer = json({ message: 'Username already exists' }, 409)
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/register': () => answer })
    renderApp('/auth?mode=register')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Registration failed')).toBeInTheDocument()
    expect(screen.getByText('Username already exists')).toBeInTheDocument()

    answer = new Response('', { status: 500 })
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Failed to create account')).toBeInTheDocument()
  })

  it('puts an address already registered under the Email field, focused', async () => {
    const taken = 'An account with this email already exists'
    stubFetch({ 'GET /api/user': signedOut, 'POST /api/register': () => json({ message: taken, errors: { email: taken } }, 409) })
    renderApp('/auth?mode=register')
    await userEvent.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    const email = screen.getByLabelText('Email')
    await waitFor(() => expect(email).toHaveAccessibleDescription(taken))
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveFocus()
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid')
  })
})

describe('auth page', () => {
  it('sends a signed-in user to /', async () => {
    stubFetch({ 'GET /api/user': () => json(alice) })
    const { router } = renderApp('/auth')
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })

  it.each([
    ['unavailable', 'Google sign-in is not available'],
    ['failed', 'Google sign-in failed'],
  ])('explains ?google=%s', async (value, message) => {
    stubFetch({ 'GET /api/user': signedOut })
    renderApp(`/auth?google=${value}`)
    expect(await screen.findByText(message)).toBeInTheDocument()
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'
import { deviceName } from './components/sessions-card'

const verified = { ...alice, emailVerified: true }
const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`)

function bodyOf(mock: ReturnType<typeof stubFetch>, key: string) {
  const call = mock.mock.calls.find(([u, init]) => `${init?.method ?? 'GET'} ${String(u)}` === key)
  return call ? (JSON.parse(String(call[1]?.body)) as unknown) : undefined
}

describe('security cards', () => {
  it('sets up TOTP: the QR code and key, a code enables it, the recovery codes are shown once', async () => {
    let on = false
    const mock = stubFetch({
      'GET /api/user': () => json(verified),
      'GET /api/2fa': () => json({ totp: on, recoveryCodesLeft: on ? 10 : 0 }),
      'POST /api/2fa/totp/setup': () => json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrCode: 'data:image/png;base64,AA==' }),
      'POST /api/2fa/totp/enable': () => {
        on = true
        return json({ recoveryCodes: codes })
      },
      'GET /api/sessions': () => json([]),
      'GET /api/webauthn/credentials': () => json([]),
    })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }, { timeout: 5000 }))
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute('src', 'data:image/png;base64,AA==')
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Code from the app'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }))
    const list = await screen.findByRole('list', { name: 'Recovery codes' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(10)
    expect(bodyOf(mock, 'POST /api/2fa/totp/enable')).toEqual({ code: '123456' })
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }))
    expect(await screen.findByText('Recovery codes left: 10')).toBeInTheDocument()
    expect(screen.queryByText('code0-abcde')).not.toBeInTheDocument()
  })

  it('turns TOTP off only with the password or a code', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(verified),
      'GET /api/2fa': () => json({ totp: true, recoveryCodesLeft: 3 }),
      'POST /api/2fa/disable': () => json({ message: 'Incorrect password or code', errors: { code: 'Incorrect password or code' } }, 400),
      'GET /api/sessions': () => json([]),
      'GET /api/webauthn/credentials': () => json([]),
    })
    renderApp('/account-settings')
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }, { timeout: 5000 }))
    await userEvent.click(screen.getByRole('button', { name: 'Use a code instead' }))
    await userEvent.type(screen.getByLabelText('Authentication or recovery code'), '654321')
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }))
    expect(await screen.findByText('Incorrect password or code')).toBeInTheDocument()
    expect(bodyOf(mock, 'POST /api/2fa/disable')).toEqual({ code: '654321' })
  })

  it('lists the sessions and ends another one', async () => {
    const mock = stubFetch({
      'GET /api/user': () => json(verified),
      'GET /api/2fa': () => json({ totp: false, recoveryCodesLeft: 0 }),
      'GET /api/webauthn/credentials': () => json([]),
      'GET /api/sessions': () =>
        json([
          { id: 'a1', current: true, createdAt: '2026-03-01T12:00:00Z', lastSeenAt: '2026-03-01T12:00:00Z', ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0', location: '' },
          { id: 'b2', current: false, createdAt: '2026-03-01T12:00:00Z', lastSeenAt: '2026-03-01T12:00:00Z', ip: '8.8.8.8', userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36', location: 'US' },
        ]),
      'DELETE /api/sessions/b2': () => json({ message: 'Session ended' }),
    })
    renderApp('/account-settings')
    const list = await screen.findByRole('list', { name: 'Sessions' }, { timeout: 5000 })
    expect(within(list).getByText('Firefox on Linux')).toBeInTheDocument()
    expect(within(list).getByText('This device')).toBeInTheDocument()
    expect(within(list).getByText(/8\.8\.8\.8/)).toBeInTheDocument()
    await userEvent.click(within(list).getByRole('button', { name: 'End' }))
    expect(await screen.findByText('Session ended')).toBeInTheDocument()
    expect(mock.mock.calls.some(([u, init]) => u === '/api/sessions/b2' && init?.method === 'DELETE')).toBe(true)
  })

  it('names devices from their user agents', () => {
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1')).toBe('Safari on iOS')
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge on Windows')
    expect(deviceName('curl/8.0')).toBe('curl/8.0')
    expect(deviceName('')).toBe('Unknown device')
  })
})

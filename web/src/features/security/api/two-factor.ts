import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, getQueryFn, serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

export interface TwoFactorStatus {
  totp: boolean
  recoveryCodesLeft: number
}

export interface TOTPSetup {
  secret: string
  otpauthUrl: string
  /** A PNG data URL of the otpauth URL, drawn by the server's renderer. */
  qrCode: string
}

/** What turning the second factor off, or minting new recovery codes, asks for. */
export type Confirmation = { password: string } | { code: string }

export const twoFactorQueryKey = ['/api/2fa']

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorQueryKey, queryFn: getQueryFn<TwoFactorStatus>({ on401: 'throw' }) })
}

function failed(title: string) {
  return (error: Error) => toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })
}

/** POST /api/2fa/totp/setup: a new secret, shown as a QR code and as text. */
export function useSetupTOTP() {
  return useMutation({
    mutationFn: () => apiJson<TOTPSetup>('POST', '/api/2fa/totp/setup'),
    onError: failed('Could not set up two-factor authentication'),
  })
}

/** POST /api/2fa/totp/enable: a code proves the app has the secret; the answer holds the recovery codes. */
export function useEnableTOTP() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (code: string) => apiJson<{ recoveryCodes: string[] }>('POST', '/api/2fa/totp/enable', { code }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: twoFactorQueryKey })
      toast({ title: 'Two-factor authentication is on' })
    },
  })
}

/** POST /api/2fa/disable with the password or a code. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: Confirmation) => apiJson<{ message: string }>('POST', '/api/2fa/disable', input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: twoFactorQueryKey })
      toast({ title: 'Two-factor authentication is off' })
    },
  })
}

/** POST /api/2fa/recovery-codes with the password or a code: ten new codes, the old ones void. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: Confirmation) => apiJson<{ recoveryCodes: string[] }>('POST', '/api/2fa/recovery-codes', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  })
}

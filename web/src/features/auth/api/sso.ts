import { useMutation } from '@tanstack/react-query'
import { apiJson } from '@/lib/api-client'

/** "Sign in with SSO": the login URL of the workspace whose SAML IdP signs in the address's domain. */
export function useFindSSO() {
  return useMutation({
    mutationFn: (email: string) => apiJson<{ loginUrl: string }>('POST', '/api/auth/sso', { email }),
    onSuccess: ({ loginUrl }) => window.location.assign(loginUrl),
  })
}

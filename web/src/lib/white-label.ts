import { queryOptions, useQuery } from '@tanstack/react-query'
import { fetchFirst } from './boot'

/** The brand of the host the site was opened on (GET /api/white-label/config). */
export interface WhiteLabelConfig {
  name: string
  primaryColor: string
  secondaryColor: string
  customFavicon: string
  customCSS: string
  logoUrl: string
  removeSquarelyBranding: boolean
  isDefault: boolean
  /** Whether Google sign-in is configured: the site's, not the brand's. */
  googleSignIn: boolean
  /** Whether visitors may use the generator (SQUARELY_PUBLIC_GENERATOR). */
  publicGenerator?: boolean
  /** Whether passwords sign in (SQUARELY_PASSWORD_LOGIN): off, only admins use one, as break-glass. */
  passwordLogin?: boolean
}

export const CONFIG_ERROR = 'Failed to fetch white label configuration'

async function fetchConfig({ signal }: { signal: AbortSignal }): Promise<WhiteLabelConfig> {
  const res = await fetchFirst('/api/white-label/config', { credentials: 'include', signal })
  if (!res.ok) throw new Error(CONFIG_ERROR)
  return (await res.json()) as WhiteLabelConfig
}

export const whiteLabelConfigKey = ['/api/white-label/config']

/** Retried 3 times and fresh for 5 minutes (spec 02 §9); on failure the site keeps its default look. */
export const whiteLabelConfigOptions = queryOptions({
  queryKey: whiteLabelConfigKey,
  queryFn: fetchConfig,
  retry: 3,
  staleTime: 5 * 60 * 1000,
  refetchOnWindowFocus: true,
})

export function useWhiteLabelConfig() {
  return useQuery(whiteLabelConfigOptions)
}

/**
 * The brand for display (logo, name), read from what useWhiteLabelConfig
 * fetched; it never fetches itself, so a component showing the brand adds no
 * request. undefined = the default brand.
 */
export function useBrand(): WhiteLabelConfig | undefined {
  const { data } = useQuery({ queryKey: whiteLabelConfigKey, queryFn: fetchConfig, enabled: false })
  return data && !data.isDefault ? data : undefined
}

/** Whether to offer Google sign-in: only once the server said it is configured. */
export function useGoogleSignIn() {
  const { data } = useWhiteLabelConfig()
  return data?.googleSignIn === true
}

/** Whether visitors may use the generator: true until the server says otherwise. */
export function usePublicGenerator() {
  const { data } = useWhiteLabelConfig()
  return data?.publicGenerator !== false
}

/** Whether to offer password sign-in first: true until the server says otherwise. */
export function usePasswordLogin() {
  const { data } = useWhiteLabelConfig()
  return data?.passwordLogin !== false
}

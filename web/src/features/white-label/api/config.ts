import { useQuery } from '@tanstack/react-query'

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
}

export const CONFIG_ERROR = 'Failed to fetch white label configuration'

async function fetchConfig({ signal }: { signal: AbortSignal }): Promise<WhiteLabelConfig> {
  const res = await fetch('/api/white-label/config', { credentials: 'include', signal })
  if (!res.ok) throw new Error(CONFIG_ERROR)
  return (await res.json()) as WhiteLabelConfig
}

/** Retried 3 times and fresh for 5 minutes (spec 02 §9); on failure the site keeps its default look. */
export function useWhiteLabelConfig() {
  return useQuery({
    queryKey: ['/api/white-label/config'],
    queryFn: fetchConfig,
    retry: 3,
    staleTime: 5 * 60 * 1000,
    refetchOnWindowFocus: true,
  })
}

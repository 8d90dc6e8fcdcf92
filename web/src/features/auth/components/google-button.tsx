import { Button } from '@/components/ui/button'
import { useGoogleSignIn } from '@/lib/white-label'
import { OrDivider } from './or-divider'

/**
 * Google sign-in, under an "or" divider, when the server has it configured
 * (else nothing). It is a full-page navigation: the server runs the OAuth
 * dance and comes back with a session.
 */
export function GoogleButton({ children }: { children: string }) {
  if (!useGoogleSignIn()) return null
  return (
    <>
      <OrDivider />
      <Button type="button" variant="outline" className="w-full" onClick={() => window.location.assign('/auth/google')}>
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path fill="#4285F4" d="M23.5 12.27c0-.85-.08-1.67-.22-2.45H12v4.64h6.45a5.5 5.5 0 0 1-2.39 3.61v3h3.87c2.26-2.09 3.57-5.17 3.57-8.8Z" />
          <path fill="#34A853" d="M12 24c3.24 0 5.95-1.07 7.93-2.91l-3.87-3A7.2 7.2 0 0 1 12 19.27a7.15 7.15 0 0 1-6.72-4.94H1.28v3.1A12 12 0 0 0 12 24Z" />
          <path fill="#FBBC05" d="M5.28 14.33a7.2 7.2 0 0 1 0-4.66v-3.1h-4a12 12 0 0 0 0 10.86l4-3.1Z" />
          <path fill="#EA4335" d="M12 4.77c1.76 0 3.34.6 4.58 1.8l3.43-3.43A12 12 0 0 0 1.28 6.57l4 3.1A7.15 7.15 0 0 1 12 4.77Z" />
        </svg>
        {children}
      </Button>
    </>
  )
}

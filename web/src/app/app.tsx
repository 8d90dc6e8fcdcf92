import type { QueryClient } from '@tanstack/react-query'
import { WhiteLabelTheme } from '@/features/white-label/components/white-label-theme'
import { AppProvider } from './provider'
import { AppRouter } from './router'

export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProvider queryClient={queryClient}>
      <WhiteLabelTheme />
      <AppRouter />
    </AppProvider>
  )
}

import { WhiteLabelTheme } from '@/features/white-label/components/white-label-theme'
import { AppProvider } from './provider'
import { AppRouter } from './router'

export function App() {
  return (
    <AppProvider>
      <WhiteLabelTheme />
      <AppRouter />
    </AppProvider>
  )
}

import { AccountSettingsPage } from '@/features/account/routes/account-settings-page'
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card'
import { SecurityCards } from '@/features/security/components/security-cards'

/** Account settings with the security cards and the personal API keys card: features do not import each other, so the app composes them. */
export function AccountSettingsRoute() {
  return (
    <AccountSettingsPage
      more={
        <>
          <SecurityCards />
          <ApiKeysCard />
        </>
      }
    />
  )
}

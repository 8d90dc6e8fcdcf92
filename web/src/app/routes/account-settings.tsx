import { AccountSettingsPage } from '@/features/account/routes/account-settings-page'
import { SecurityCards } from '@/features/security/components/security-cards'

/** Account settings with the security cards: features do not import each other, so the app composes them. */
export function AccountSettingsRoute() {
  return <AccountSettingsPage more={<SecurityCards />} />
}

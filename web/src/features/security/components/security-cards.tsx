import { PasskeysCard } from './passkeys-card'
import { SessionsCard } from './sessions-card'
import { TwoFactorCard } from './two-factor-card'

/** The account settings' security cards: two-factor authentication, passkeys and sessions. */
export function SecurityCards() {
  return (
    <>
      <TwoFactorCard />
      <PasskeysCard />
      <SessionsCard />
    </>
  )
}

import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { LegalPage } from '../components/legal-page'
import { privacySections } from '../content/legal'
import { pageMeta } from '../content/meta'

export function PrivacyPage() {
  usePageTitle(siteTitle(pageMeta['/privacy'].title))
  return <LegalPage title="Privacy Policy" intro="What we keep about you and your codes, and why. In short: only what the service needs." sections={privacySections} />
}

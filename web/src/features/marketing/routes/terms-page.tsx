import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { LegalPage } from '../components/legal-page'
import { termsSections } from '../content/legal'
import { pageMeta } from '../content/meta'

export function TermsPage() {
  usePageTitle(siteTitle(pageMeta['/terms'].title))
  return <LegalPage title="Terms of Service" intro="The rules for using Squarely, in plain words." sections={termsSections} />
}

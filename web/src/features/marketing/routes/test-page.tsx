import { Link } from 'react-router'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { PageHeader } from '../components/page-header'
import { pageMeta } from '../content/meta'

/** The route table lists /test without a purpose; it is an honest smoke-test page, kept out of the navigation. */
export function TestPage() {
  usePageTitle(siteTitle(pageMeta['/test'].title))
  return (
    <PageHeader title="Test page">
      <p>
        If you can read this, Squarely is up and its pages load. There is nothing else here: head to the{' '}
        <Link to="/" className="font-semibold text-primary hover:underline">
          QR code generator
        </Link>{' '}
        to make a code.
      </p>
    </PageHeader>
  )
}

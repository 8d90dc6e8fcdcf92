import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'

/**
 * Catches what a page throws while its code loads or while it renders, so
 * the site's header and footer stay and the visitor gets a way on instead
 * of a blank window. A page's code can fail to arrive: the connection
 * dropped, or a deploy replaced the file a tab opened before it asks for.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The page failed to load or render:', error, info.componentStack)
  }

  render() {
    if (!this.state.failed) return this.props.children
    return (
      <section role="alert" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">This page didn&apos;t load</h1>
        <p className="mt-4 text-lg text-slate-600">Check your connection, then reload the page.</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </section>
    )
  }
}

import { BarChart3, Copy, Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { can, useActiveWorkspace } from '@/lib/workspace'
import { WorkspacePage } from '@/features/workspaces'
import { useDeletePage, usePages, useSavePage, type HostedPage } from '../api/pages'
import { PageStats } from '../components/page-stats'
import { pageTypeIcons, pageTypeLabel, pageTypes } from '../lib/page-types'

/** /pages: the workspace's hosted pages; editors edit, duplicate and delete them. */
export function PagesListPage() {
  usePageTitle(siteTitle('Hosted pages'))
  const workspace = useActiveWorkspace()
  const pages = usePages()
  const heading = useFocusAfterRemoval(pages.data?.length ?? 0)
  if (!workspace) return <Spinner />
  const editor = can(workspace.role, 'editCodes')
  return (
    <WorkspacePage workspace={workspace} title="Hosted pages">
      <Card>
        <CardHeader>
          <CardTitle ref={heading} tabIndex={-1} className="focus:outline-none">
            Pages your codes open
          </CardTitle>
          <CardDescription>
            Contact cards, link lists, menus, coupons, events and more, hosted by Squarely: light, usable without JavaScript, and
            changed after printing.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {editor && (
            <nav aria-label="New page" className="flex flex-wrap gap-2">
              {pageTypes.map((t) => {
                const Icon = pageTypeIcons[t.value]
                return (
                  <Button key={t.value} asChild variant="outline" size="sm">
                    <Link to={`/pages/new/${t.value}`}>
                      <Icon className="size-4" aria-hidden="true" /> New {t.label}
                    </Link>
                  </Button>
                )
              })}
            </nav>
          )}
          {pages.isPending && <Spinner label="Loading pages..." />}
          {pages.isError && <Alert variant="destructive">{serverMessage(pages.error) ?? 'Failed to load the pages.'}</Alert>}
          {pages.data?.length === 0 && <p className="text-sm text-slate-600">No pages yet.</p>}
          {pages.data && pages.data.length > 0 && (
            <ul className="grid divide-y divide-slate-100" aria-label="Hosted pages">
              {pages.data.map((p) => (
                <PageRow key={p.id} page={p} editor={editor} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </WorkspacePage>
  )
}

function PageRow({ page, editor }: { page: HostedPage; editor: boolean }) {
  const remove = useDeletePage()
  const save = useSavePage()
  const [stats, setStats] = useState(false)
  const duplicate = () =>
    save.mutate(
      { page: { type: page.type, title: `${page.title} (copy)`, language: page.language, theme: page.theme, content: page.content } },
      {
        onSuccess: (p) => toast({ title: `Duplicated as ${p.title}` }),
        onError: (e) => toast({ title: 'Could not duplicate', description: serverMessage(e) ?? 'Please try again.', variant: 'destructive' }),
      },
    )
  const del = () => {
    if (!window.confirm(`Delete ${page.title}?`)) return
    remove.mutate(page.id, {
      onSuccess: () => toast({ title: `${page.title} deleted` }),
      onError: (e) => toast({ title: 'Could not delete the page', description: serverMessage(e) ?? 'Please try again.', variant: 'destructive' }),
    })
  }
  return (
    <li className="grid gap-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{page.title}</p>
          <p className="text-sm text-slate-600">
            {pageTypeLabel(page.type)} ·{' '}
            <a href={page.url} target="_blank" rel="noreferrer" className="text-primary hover:underline">
              /p/{page.slug}
            </a>
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button variant="outline" size="sm" onClick={() => setStats(!stats)} aria-expanded={stats} aria-label={`Analytics of ${page.title}`}>
            <BarChart3 className="size-4" aria-hidden="true" /> Analytics
          </Button>
          {editor && (
            <>
              <Button asChild variant="outline" size="sm">
                <Link to={`/pages/${page.id}/edit`} aria-label={`Edit ${page.title}`}>
                  <Pencil className="size-4" aria-hidden="true" /> Edit
                </Link>
              </Button>
              <Button variant="outline" size="sm" onClick={duplicate} aria-label={`Duplicate ${page.title}`}>
                <Copy className="size-4" aria-hidden="true" /> Duplicate
              </Button>
              <Button variant="outline" size="sm" onClick={del} aria-label={`Delete ${page.title}`}>
                <Trash2 className="size-4" aria-hidden="true" /> Delete
              </Button>
            </>
          )}
        </div>
      </div>
      {stats && <PageStats id={page.id} />}
    </li>
  )
}

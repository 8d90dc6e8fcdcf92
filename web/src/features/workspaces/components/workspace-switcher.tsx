import { Activity, Check, ChevronsUpDown, Globe, Palette, Plus, Users } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { NameDialog } from '@/components/name-dialog'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { can, roleLabels, useActiveWorkspace } from '@/lib/workspace'
import { cn } from '@/lib/utils'
import { useActivateWorkspace, useCreateWorkspace, useWorkspaces } from '../api/workspaces'

/**
 * The active workspace and the others the user belongs to: choosing one
 * makes it active for the session and refetches everything on screen. Also
 * the way to Members, Activity and a new team workspace. `wide` fills its
 * container (the dashboard's side menu); otherwise it is the header's
 * compact button (the initial alone on a phone).
 */
export function WorkspaceSwitcher({ wide = false }: { wide?: boolean }) {
  const active = useActiveWorkspace()
  const workspaces = useWorkspaces()
  const activate = useActivateWorkspace()
  const create = useCreateWorkspace()
  const [creating, setCreating] = useState(false)
  if (!active) return null

  const choose = (id: number, name: string) => {
    if (id === active.id) return
    activate.mutate(id, {
      onSuccess: () => toast({ title: 'Workspace switched', description: `You are now working in ${name}.` }),
      onError: (error) =>
        toast({ title: 'Could not switch workspace', description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' }),
    })
  }

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn(
            'flex min-w-0 cursor-pointer items-center gap-2 rounded-lg border border-slate-200 bg-white px-2.5 text-left text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary',
            wide ? 'h-11 w-full' : 'h-10 max-w-[8rem] sm:max-w-[14rem]',
          )}
        >
          <span className="grid size-6 shrink-0 place-items-center rounded-md bg-primary-50 text-xs font-bold text-primary" aria-hidden="true">
            {active.name.slice(0, 1).toUpperCase()}
          </span>
          {/* The name comes from the text, so it holds what is shown (WCAG 2.5.3). A
              phone's header has room for the initial only: the name stays for screen readers. */}
          <span className="sr-only">Workspace:</span>{' '}
          <span className="min-w-0 flex-1 truncate">{active.name}</span>
          <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align={wide ? 'start' : 'end'} className="max-w-[calc(100vw-2rem)]">
          <DropdownMenuLabel className="text-xs font-semibold uppercase tracking-wide text-slate-500">Workspaces</DropdownMenuLabel>
          {(workspaces.data ?? [active]).map((w) => (
            <DropdownMenuItem key={w.id} onSelect={() => choose(w.id, w.name)} aria-current={w.id === active.id ? 'true' : undefined}>
              <Check aria-hidden="true" className={w.id === active.id ? '' : 'invisible'} />
              <span className="min-w-0 flex-1 truncate">{w.name}</span>
              <span className="text-xs text-slate-500">{roleLabels[w.role]}</span>
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link to="/workspace/members">
              <Users aria-hidden="true" /> Members
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to="/workspace/brand-kits">
              <Palette aria-hidden="true" /> Brand kits
            </Link>
          </DropdownMenuItem>
          {can(active.role, 'manageMembers') && (
            <DropdownMenuItem asChild>
              <Link to="/workspace/activity">
                <Activity aria-hidden="true" /> Activity
              </Link>
            </DropdownMenuItem>
          )}
          {can(active.role, 'manageDomains') && (
            <DropdownMenuItem asChild>
              <Link to="/workspace/domains">
                <Globe aria-hidden="true" /> Domains
              </Link>
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus aria-hidden="true" /> Create workspace
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <NameDialog
        open={creating}
        onOpenChange={setCreating}
        title="Create workspace"
        description="A workspace holds codes your team shares. You will be its owner and can invite others."
        label="Workspace name"
        submitLabel="Create workspace"
        onSubmit={(name) =>
          create.mutateAsync(name).then((w) => toast({ title: 'Workspace created', description: `You are now working in ${w.name}.` }))
        }
      />
    </>
  )
}

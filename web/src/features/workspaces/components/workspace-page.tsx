import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import { roleLabels, useCan, type ActiveWorkspace } from '@/lib/workspace'
import { cn } from '@/lib/utils'

const tabClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary',
    isActive ? 'bg-white text-primary shadow-sm' : 'text-slate-600 hover:text-slate-900',
  )

/** The frame of the workspace's pages: its name, the caller's role, and its tabs (the managers' ones only for owners and admins). */
export function WorkspacePage({ workspace, title, children }: { workspace: ActiveWorkspace; title: string; children: ReactNode }) {
  const manager = useCan('manageMembers')
  return (
    <div className="bg-slate-50/70">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6 lg:py-10">
        <Link to="/dashboard" className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-primary">
          <ArrowLeft aria-hidden="true" className="size-4" /> My QR Codes
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
            <p className="mt-1 text-sm text-slate-600">
              <span className="break-words font-medium text-slate-800">{workspace.name}</span> · you are {roleLabels[workspace.role].toLowerCase()}
            </p>
          </div>
          <nav aria-label="Workspace" className="flex flex-wrap gap-1 rounded-lg bg-slate-200/60 p-1">
            <NavLink to="/workspace/members" className={tabClass}>
              Members
            </NavLink>
            <NavLink to="/workspace/brand-kits" className={tabClass}>
              Brand kits
            </NavLink>
            <NavLink to="/pages" className={tabClass}>
              Pages
            </NavLink>
            <NavLink to="/workspace/products" className={tabClass}>
              Products
            </NavLink>
            <NavLink to="/workspace/imports" className={tabClass}>
              Import links
            </NavLink>
            <NavLink to="/workspace/api-keys" className={tabClass}>
              API keys
            </NavLink>
            {manager && (
              <>
                <NavLink to="/workspace/activity" className={tabClass}>
                  Activity
                </NavLink>
                <NavLink to="/workspace/domains" className={tabClass}>
                  Domains
                </NavLink>
                <NavLink to="/webhooks" className={tabClass}>
                  Webhooks
                </NavLink>
                <NavLink to="/workspace/export" className={tabClass}>
                  Export
                </NavLink>
              </>
            )}
          </nav>
        </div>
        {children}
      </div>
    </div>
  )
}

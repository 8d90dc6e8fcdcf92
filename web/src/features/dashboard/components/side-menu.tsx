import { Activity, BarChart3, ChevronDown, CirclePause, Globe, LayoutGrid, Menu, Palette, PlusCircle, QrCode, Users, Webhook, X } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { useCan } from '@/lib/workspace'
import { cn } from '@/lib/utils'
import type { DashboardView } from '../lib/code-query'

interface SideMenuProps {
  view: DashboardView
  onAnalytics: () => void
  /** Paused Codes as a button instead of a link (the create view opens its Coming Soon dialog). */
  onPaused?: () => void
  /** The workspace switcher, composed by the app (features do not import each other). */
  workspaceSwitcher?: ReactNode
}

const itemClass = (active: boolean) =>
  cn(
    'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors [&_svg]:size-4 [&_svg]:shrink-0',
    active ? 'bg-primary-50 text-primary' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  )

function MenuItems({ view, onAnalytics, onPaused, workspaceSwitcher, onNavigate }: SideMenuProps & { onNavigate: () => void }) {
  const [open, setOpen] = useState(true)
  const manager = useCan('manageMembers')
  const link = (search: string, target: DashboardView, icon: ReactNode, label: string) => (
    <Link to={{ search }} onClick={onNavigate} className={itemClass(view === target)} aria-current={view === target ? 'page' : undefined}>
      {icon}
      {label}
    </Link>
  )
  return (
    <ul className="grid gap-1">
      {workspaceSwitcher && <li className="mb-2">{workspaceSwitcher}</li>}
      <li>
        <button type="button" className={cn(itemClass(false), 'justify-between text-slate-900')} aria-expanded={open} aria-controls="dashboard-codes-menu" onClick={() => setOpen((o) => !o)}>
          <span className="flex items-center gap-3">
            <QrCode aria-hidden="true" />
            My QR Codes
          </span>
          <ChevronDown aria-hidden="true" className={cn('transition-transform', !open && '-rotate-90')} />
        </button>
        {open && (
          <ul id="dashboard-codes-menu" className="mt-1 grid gap-1 border-l border-slate-200 pl-3 ml-5">
            <li>{link('?create=true', 'create', <PlusCircle aria-hidden="true" />, 'Create QR Code')}</li>
            <li>{link('', 'active', <LayoutGrid aria-hidden="true" />, 'Active Codes')}</li>
            <li>
              {onPaused ? (
                <button
                  type="button"
                  className={itemClass(false)}
                  onClick={() => {
                    onNavigate()
                    onPaused()
                  }}
                >
                  <CirclePause aria-hidden="true" />
                  Paused Codes
                </button>
              ) : (
                link('?view=paused', 'paused', <CirclePause aria-hidden="true" />, 'Paused Codes')
              )}
            </li>
          </ul>
        )}
      </li>
      <li>
        <button
          type="button"
          className={itemClass(false)}
          onClick={() => {
            onNavigate()
            onAnalytics()
          }}
        >
          <BarChart3 aria-hidden="true" />
          Analytics
        </button>
      </li>
      <li>
        <Link to="/workspace/members" onClick={onNavigate} className={itemClass(false)}>
          <Users aria-hidden="true" />
          Members
        </Link>
      </li>
      <li>
        <Link to="/workspace/brand-kits" onClick={onNavigate} className={itemClass(false)}>
          <Palette aria-hidden="true" />
          Brand kits
        </Link>
      </li>
      {manager && (
        <li>
          <Link to="/workspace/activity" onClick={onNavigate} className={itemClass(false)}>
            <Activity aria-hidden="true" />
            Activity
          </Link>
        </li>
      )}
      {manager && (
        <li>
          <Link to="/workspace/domains" onClick={onNavigate} className={itemClass(false)}>
            <Globe aria-hidden="true" />
            Domains
          </Link>
        </li>
      )}
      {manager && (
        <li>
          <Link to="/webhooks" onClick={onNavigate} className={itemClass(false)}>
            <Webhook aria-hidden="true" />
            Webhooks
          </Link>
        </li>
      )}
    </ul>
  )
}

/** The dashboard's menu: a sidebar on wide screens, a full-screen overlay behind a hamburger on small ones. */
export function SideMenu(props: SideMenuProps) {
  const [overlay, setOverlay] = useState(false)
  const close = () => setOverlay(false)
  // The overlay covers the page: the page behind it must not scroll.
  useEffect(() => {
    if (!overlay) return
    const previous = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = previous
    }
  }, [overlay])
  return (
    <>
      <nav aria-label="Dashboard" className="hidden md:block">
        <div className="sticky top-24">
          <MenuItems {...props} onNavigate={() => {}} />
        </div>
      </nav>
      <Button variant="outline" className="justify-self-start md:hidden" aria-label="Open dashboard menu" aria-expanded={overlay} onClick={() => setOverlay(true)}>
        <Menu aria-hidden="true" />
        Menu
      </Button>
      {overlay && (
        <div
          role="dialog"
          aria-modal="true"
          aria-label="Dashboard menu"
          className="fixed inset-0 z-50 flex flex-col bg-white p-4 md:hidden"
          onKeyDown={(event) => event.key === 'Escape' && close()}
        >
          <div className="mb-4 flex items-center justify-between">
            <span className="text-lg font-semibold text-slate-900">Dashboard</span>
            <Button variant="ghost" size="icon" aria-label="Close dashboard menu" autoFocus onClick={close}>
              <X aria-hidden="true" className="!size-6" />
            </Button>
          </div>
          <nav aria-label="Dashboard (mobile)" className="text-base">
            <MenuItems {...props} onNavigate={close} />
          </nav>
        </div>
      )}
    </>
  )
}

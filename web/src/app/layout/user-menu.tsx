import { CreditCard, KeyRound, Layers, LogOut, Settings } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { DialogSpinner } from '@/components/ui/spinner'
import { useLogout } from '@/features/auth/api/logout'
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher'
import type { User } from '@/lib/auth'
import { can } from '@/lib/workspace'

// The password form (react-hook-form, zod) loads when the dialog first opens, not with every page's menu.
const ChangePasswordDialog = lazy(() => import('@/features/account/components/change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })))

function initials(user: User) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ')
  const source = name || user.username
  return source.slice(0, 1).toUpperCase()
}

/** The active workspace's switcher and the account menu. */
export function UserMenu({ user }: { user: User }) {
  const [passwordOpen, setPasswordOpen] = useState(false)
  const logout = useLogout()
  const email = user.email || user.username

  return (
    <>
      <WorkspaceSwitcher />
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label="Account menu"
          className="grid size-10 cursor-pointer place-items-center rounded-full bg-gradient-to-br from-primary to-secondary text-sm font-bold text-white shadow-sm ring-offset-2 hover:opacity-90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary"
        >
          {initials(user)}
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>
            <p className="truncate text-sm font-semibold text-slate-900">{user.username}</p>
            {email !== user.username && <p className="truncate text-xs text-slate-500">{email}</p>}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link to="/account-settings">
              <Settings aria-hidden="true" /> Account Settings
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setPasswordOpen(true)}>
            <KeyRound aria-hidden="true" /> Change Password
          </DropdownMenuItem>
          {/* Bulk generation saves codes: not for a workspace's viewers. */}
          {can(user.workspace?.role, 'editCodes') && (
            <DropdownMenuItem asChild>
              <Link to="/bulk-generation">
                <Layers aria-hidden="true" /> Bulk Generation
              </Link>
            </DropdownMenuItem>
          )}
          <DropdownMenuItem asChild>
            <Link to="/subscribe">
              <CreditCard aria-hidden="true" /> Subscription
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => logout.mutate()} className="text-red-600 data-[highlighted]:bg-red-50">
            <LogOut aria-hidden="true" className="!text-red-600" /> Log out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {passwordOpen && (
        <Suspense fallback={<DialogSpinner label="Loading..." />}>
          <ChangePasswordDialog username={user.username} open onOpenChange={setPasswordOpen} />
        </Suspense>
      )}
    </>
  )
}

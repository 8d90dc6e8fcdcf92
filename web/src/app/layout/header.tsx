import { Menu, X } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link, NavLink } from 'react-router'
import { Logo } from '@/components/logo'
import { Button } from '@/components/ui/button'
import { useUser } from '@/lib/auth'
import { cn } from '@/lib/utils'
import { navLinks } from './nav-links'

// Only signed-in users see the menu (and its dropdown code).
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })))

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-primary',
    isActive ? 'text-primary' : 'text-slate-600',
  )

export function Header() {
  const { data: user, isLoading } = useUser()
  const [menuOpen, setMenuOpen] = useState(false)
  const closeMenu = () => setMenuOpen(false)

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        {/* Named by its text, so the name holds what is shown, a white label's too (WCAG 2.5.3). */}
        <Link to="/" onClick={closeMenu} className="shrink-0">
          <Logo /> <span className="sr-only">home</span>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {navLinks.map(({ to, label }) => (
            <NavLink key={to} to={to} className={navLinkClass}>
              {label}
            </NavLink>
          ))}
        </nav>

        {/* May shrink: on a phone the workspace's name is cut short rather than push the page sideways. */}
        <div className="flex min-w-0 items-center gap-2">
          {!isLoading && !user && (
            <div className="hidden items-center gap-2 lg:flex">
              <Button asChild variant="ghost">
                <Link to="/auth">Log in</Link>
              </Button>
              <Button asChild>
                <Link to="/auth?mode=register">Start Free Trial</Link>
              </Button>
            </div>
          )}
          {user && (
            <Suspense fallback={null}>
              <UserMenu user={user} />
            </Suspense>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X className="!size-6" aria-hidden="true" /> : <Menu className="!size-6" aria-hidden="true" />}
          </Button>
        </div>
      </div>

      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-slate-200 bg-white px-4 pb-4 lg:hidden">
          <ul className="grid gap-1 py-2">
            {navLinks.map(({ to, label }) => (
              <li key={to}>
                <NavLink to={to} onClick={closeMenu} className={(state) => cn(navLinkClass(state), 'block text-base')}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
          {!isLoading && !user && (
            <div className="grid gap-2 border-t border-slate-200 pt-4">
              <Button asChild variant="outline">
                <Link to="/auth" onClick={closeMenu}>
                  Sign In
                </Link>
              </Button>
              <Button asChild>
                <Link to="/auth?mode=register" onClick={closeMenu}>
                  Sign Up
                </Link>
              </Button>
            </div>
          )}
        </nav>
      )}
    </header>
  )
}

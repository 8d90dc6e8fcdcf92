import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Logo } from '@/components/logo'

/** The frame of the stand-alone checkout pages (they have no site header or footer). */
export function CheckoutShell({ children }: { children: ReactNode }) {
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-10">
      <div className="mx-auto grid max-w-xl gap-6">
        <Link to="/" className="justify-self-center">
          <Logo />
        </Link>
        {children}
      </div>
    </main>
  )
}

import { AlertTriangle, Check, Clock, Gift, Loader2, Sparkles } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { useTrialStatus } from './api/trial-status'
import type { TrialStatus } from './api/types'
import { useActivateTrial } from '@/lib/activate-trial'
import { useUser } from '@/lib/auth'
import { countOf } from '@/lib/count'
import { premiumPerks } from '@/lib/premium'
import { can } from '@/lib/workspace'

function UpgradeLink({ children = 'Upgrade Now' }: { children?: string }) {
  return (
    <Button asChild size="sm" className="shrink-0">
      <Link to="/subscribe">{children}</Link>
    </Button>
  )
}

/** What Premium adds, which the running trial gives too. */
function PerkList({ dynamicLimit }: { dynamicLimit: number }) {
  return (
    <ul className="mt-1 grid gap-1 text-slate-700">
      {premiumPerks(dynamicLimit).map((perk) => (
        <li key={perk} className="flex items-start gap-1.5">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          {perk}
        </li>
      ))}
    </ul>
  )
}

/**
 * The dashboard's offer of the 3-day trial (spec 01 §6: signed-in users
 * may activate it), for an owner of a workspace that never had a trial nor
 * a subscription. The server ignores the e-mail of a signed-in activation
 * but wants one, so the account's goes.
 */
export function TrialOffer({ email, dynamicLimit }: { email: string; dynamicLimit: number }) {
  const activate = useActivateTrial()
  return (
    <section aria-labelledby="trial-offer-title" className="flex flex-col gap-3 rounded-2xl border border-primary-100 bg-gradient-to-r from-primary-50 to-violet-50 p-4 sm:flex-row sm:items-center">
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-white text-primary shadow-sm">
        <Gift className="size-5" aria-hidden="true" />
      </span>
      <div className="flex-1 text-sm">
        <h2 id="trial-offer-title" className="font-semibold text-slate-900">
          Try Premium free for 3 days
        </h2>
        <p className="text-slate-600">No credit card required. For 3 days your workspace gets what Premium adds:</p>
        <PerkList dynamicLimit={dynamicLimit} />
      </div>
      <Button size="sm" className="shrink-0" disabled={activate.isPending} onClick={() => activate.mutate(email)}>
        {activate.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Start Free Trial
      </Button>
    </section>
  )
}

/**
 * The trial banner for the user's status: none for subscribers, days
 * remaining and what the trial gives during it, an upgrade call once it
 * ended. The offer to start one is TrialOffer's.
 */
export function TrialBanner({ status }: { status: TrialStatus }) {
  if (status.subscriptionStatus === 'active') return null
  if (status.isActive) {
    const days = `${countOf(status.daysRemaining, 'day')} remaining`
    return (
      <div role="status" className="flex flex-col gap-3 rounded-2xl border border-primary-100 bg-gradient-to-r from-primary-50 to-violet-50 p-4 sm:flex-row sm:items-center">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-white text-primary shadow-sm">
          <Sparkles className="size-5" aria-hidden="true" />
        </span>
        <div className="flex-1 text-sm">
          <p className="font-semibold text-slate-900">Free Trial Active: {days}</p>
          <p className="text-slate-600">Until it ends your workspace has what Premium adds:</p>
          <PerkList dynamicLimit={status.dynamicQRLimit} />
          <p className="mt-1 text-slate-600">
            The codes you make stay after it; new dynamic codes then stop at {status.dynamicQRLimit}. Subscribe to keep them unlimited.
          </p>
        </div>
        <UpgradeLink />
      </div>
    )
  }
  if (status.hasExpired) {
    return (
      <div role="status" className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 sm:flex-row sm:items-center">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-white text-amber-600 shadow-sm">
          <Clock className="size-5" aria-hidden="true" />
        </span>
        <div className="flex-1 text-sm">
          <p className="font-semibold text-slate-900">Your Free Trial Has Expired</p>
          <p className="text-slate-700">
            Static QR codes stay free forever. Dynamic QR codes are limited to {status.dynamicQRLimit}; subscribe to create more.
          </p>
        </div>
        <UpgradeLink>Choose a Plan</UpgradeLink>
      </div>
    )
  }
  return null
}

/** The inline alert shown when no more dynamic codes may be created (spec 01 §2). */
export function DynamicLimitAlert({ status }: { status: TrialStatus }) {
  if (status.canCreateDynamicQR) return null
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 sm:flex-row sm:items-center">
      <AlertTriangle className="size-5 shrink-0 text-red-600" aria-hidden="true" />
      <p className="flex-1">
        <strong>Dynamic QR Limit Reached:</strong> You&apos;ve used {status.dynamicQRUsed} of {status.dynamicQRLimit} dynamic QR codes
      </p>
      <Link to="/subscribe" className="shrink-0 font-semibold text-red-700 underline underline-offset-4 hover:text-red-900">
        Upgrade for unlimited codes
      </Link>
    </div>
  )
}

/**
 * The trial banner (or the trial's offer) and the limit alert, from GET
 * /api/trial-status (the dashboard is signed-in only). Only owners may
 * start the workspace's trial, and only in a workspace that never had one
 * nor a subscription ("free"), by an account that never started one.
 */
export function TrialBanners() {
  const { data: status } = useTrialStatus()
  const { data: user } = useUser()
  if (!status || (status.subscriptionStatus === 'active' && status.canCreateDynamicQR)) return null
  const offer = !status.isActive && !status.hasExpired && !status.trialUsed && status.subscriptionStatus === 'free' && can(user?.workspace?.role, 'own')
  return (
    <div className="grid gap-3">
      {offer && user ? <TrialOffer email={user.email || user.username} dynamicLimit={status.dynamicQRLimit} /> : <TrialBanner status={status} />}
      <DynamicLimitAlert status={status} />
    </div>
  )
}

import { AlertTriangle, Clock, Sparkles } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { useTrialStatus } from './api/trial-status'
import type { TrialStatus } from './api/types'
import { countOf } from '@/lib/count'

function UpgradeLink({ children = 'Upgrade Now' }: { children?: string }) {
  return (
    <Button asChild size="sm" className="shrink-0">
      <Link to="/subscribe">{children}</Link>
    </Button>
  )
}

/**
 * The trial banner for the user's status: none for subscribers, days
 * remaining during the trial, an upgrade call once it ended. A signed-in
 * account already has everything the trial offers (dynamic codes up to the
 * same limit, analytics, logos), so one that never started it is offered
 * nothing: only a subscription adds more.
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
          <p className="text-slate-600">
            Dynamic QR codes, analytics and logos are yours: up to {status.dynamicQRLimit} dynamic QR codes, during the trial and after it.
            Subscribe for unlimited dynamic codes.
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
            Static QR codes stay free forever. Dynamic QR codes are limited to {status.dynamicQRLimit}; subscribe to create more and keep full analytics.
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

/** The trial banner and the limit alert, from GET /api/trial-status (the dashboard is signed-in only). */
export function TrialBanners() {
  const { data: status } = useTrialStatus()
  if (!status || (status.subscriptionStatus === 'active' && status.canCreateDynamicQR)) return null
  return (
    <div className="grid gap-3">
      <TrialBanner status={status} />
      <DynamicLimitAlert status={status} />
    </div>
  )
}

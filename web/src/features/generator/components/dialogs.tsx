import { BarChart3, Check, Clock, Lock, Pencil, Sparkles, TrendingUp, Users, type LucideIcon } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { cn } from '@/lib/utils'
import { useGoogleSignIn } from '@/lib/white-label'

interface DialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** A dialog opened by choosing from a list, which is gone by then: where focus goes back to on closing. */
type ReturnFocus = { onCloseAutoFocus?: (event: Event) => void }

/** The round badge over each dialog's title; className gives its colours. */
function HeaderIcon({ icon: Icon, className }: { icon: LucideIcon; className: string }) {
  return (
    <span className={cn('mb-2 grid size-11 place-items-center rounded-full', className)}>
      <Icon className="size-5" aria-hidden="true" />
    </span>
  )
}

/** A visitor chose a type that needs an account (pdf). */
export function PremiumFeatureDialog({ open, onOpenChange, onCloseAutoFocus }: DialogProps & ReturnFocus) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <HeaderIcon icon={Lock} className="bg-violet-100 text-violet-700" />
          <DialogTitle>Premium Feature</DialogTitle>
          <DialogDescription>Please sign in or create an account to access this functionality.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button asChild variant="outline">
            <Link to="/auth">Sign In</Link>
          </Button>
          <Button asChild>
            <Link to="/auth?mode=register">Sign Up</Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

/** A type that is not available yet (events, sms, bitcoin); the choice is not applied. */
export function FutureFeatureDialog({ open, onOpenChange, typeLabel, onCloseAutoFocus }: DialogProps & ReturnFocus & { typeLabel?: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <HeaderIcon icon={Clock} className="bg-amber-100 text-amber-700" />
          <DialogTitle>Future Feature</DialogTitle>
          <DialogDescription>
            {typeLabel ? `${typeLabel} QR codes are` : 'This QR code type is'} coming soon. We are working on it and it
            will be available in a future update.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Got it</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

const analyticsPerks = [
  { icon: BarChart3, text: 'Real-time scan counts for every code' },
  { icon: Users, text: 'Unique visitors and engagement analytics' },
  { icon: TrendingUp, text: 'Performance reports with optimisation suggestions' },
  { icon: Pencil, text: 'Dynamic QR codes you can edit anytime, without reprinting' },
]

/** A visitor clicked the 'Scan tracking' switch. */
export function AnalyticsUpsellDialog({ open, onOpenChange }: DialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <HeaderIcon icon={Sparkles} className="bg-primary-100 text-primary" />
          <DialogTitle>Unlock Advanced Analytics</DialogTitle>
          <DialogDescription>Create a free account to track every scan of your QR codes.</DialogDescription>
        </DialogHeader>
        <ul className="grid gap-3">
          {analyticsPerks.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 text-sm text-slate-700">
              <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary-50 text-primary">
                <Icon className="size-4" aria-hidden="true" />
              </span>
              <span className="pt-1.5">{text}</span>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Maybe Later</Button>
          </DialogClose>
          <Button asChild>
            <Link to="/auth?mode=register" onClick={() => onOpenChange(false)}>
              Create Free Account
            </Link>
          </Button>
        </DialogFooter>
        <p className="text-center text-xs text-slate-500">Free forever • No credit card required • 30 seconds signup</p>
      </DialogContent>
    </Dialog>
  )
}

/** Shown to a visitor a second after a download; Google is offered only when it is configured. */
export function AccountPromptDialog({ open, onOpenChange }: DialogProps) {
  const google = useGoogleSignIn()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <HeaderIcon icon={Check} className="bg-emerald-100 text-emerald-700" />
          <DialogTitle>Your QR code is downloaded</DialogTitle>
          <DialogDescription>
            Create a free account to save your codes, edit where they point after printing and see every scan.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          {google && (
            <Button asChild size="lg">
              <a href="/auth/google">Sign up with Google</a>
            </Button>
          )}
          <Button asChild size="lg" variant={google ? 'outline' : 'default'}>
            <Link to="/auth?mode=register" onClick={() => onOpenChange(false)}>
              Sign up with Email
            </Link>
          </Button>
          <DialogClose asChild>
            <Button variant="ghost">Maybe later</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  )
}

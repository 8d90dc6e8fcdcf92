import { Check, Gift, Loader2 } from 'lucide-react'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { fieldMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { useActivateTrial } from '@/lib/activate-trial'
import { premiumPerks } from '@/lib/premium'

const perks = premiumPerks()

/** The landing page's free-trial offer: an e-mail address activates 3 days of premium features. */
export function FreeTrialBanner() {
  const id = useId()
  const [email, setEmail] = useState('')
  const activate = useActivateTrial()
  // The server's word on the address (besides the spec's toast), under the field.
  const refused = fieldMessage(activate.error, 'email')
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (refused) input.current?.focus()
  }, [refused])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const value = email.trim()
    if (!value) {
      toast({
        title: 'Email Required',
        description: 'Please enter your email address to activate your free trial.',
        variant: 'destructive',
      })
      return
    }
    activate.mutate(value)
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-secondary via-primary to-violet-600 p-6 text-white shadow-xl sm:p-10"
    >
      <div aria-hidden="true" className="absolute -right-16 -top-16 size-64 rounded-full bg-white/10 blur-2xl" />
      <div className="relative grid items-center gap-8 lg:grid-cols-[1.2fr_1fr]">
        <div>
          <span className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium">
            <Gift className="size-4" aria-hidden="true" />
            3-day free trial
          </span>
          <h2 id={`${id}-title`} className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">
            Try every premium feature free for 3 days
          </h2>
          <p className="mt-2 text-white/85">No credit card required. Static QR codes stay free forever.</p>
          <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {perks.map((perk) => (
              <li key={perk} className="inline-flex items-center gap-1.5">
                <Check className="size-4" aria-hidden="true" />
                {perk}
              </li>
            ))}
          </ul>
        </div>
        <form onSubmit={submit} noValidate className="grid gap-3 rounded-2xl bg-white/10 p-4 backdrop-blur sm:p-5">
          <label htmlFor={`${id}-email`} className="text-sm font-medium">
            Your email address
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              ref={input}
              id={`${id}-email`}
              aria-invalid={refused ? true : undefined}
              aria-describedby={refused ? `${id}-email-error` : undefined}
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className="h-11 border-white/30 bg-white text-slate-900"
            />
            <Button type="submit" size="lg" variant="secondary" disabled={activate.isPending} className="h-11 shrink-0">
              {activate.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Start Free Trial
            </Button>
          </div>
          <FieldError id={`${id}-email-error`} className="font-medium text-white">
            {refused}
          </FieldError>
          <p className="text-xs text-white/75">Free for 3 days, then keep your static codes forever.</p>
        </form>
      </div>
    </section>
  )
}

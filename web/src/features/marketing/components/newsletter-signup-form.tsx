import { CheckCircle2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { toast } from '@/lib/use-toast'
import { isNewsletterEmail, useNewsletterSignup } from '../api/newsletter-signup'

export function NewsletterSignupForm() {
  const [email, setEmail] = useState('')
  const signup = useNewsletterSignup()

  if (signup.isSuccess) {
    return (
      <p className="flex items-center gap-2 text-sm font-medium text-emerald-400">
        <CheckCircle2 className="size-5" aria-hidden="true" />
        Successfully subscribed!
      </p>
    )
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!isNewsletterEmail(email)) {
      toast({ title: 'Invalid email', description: 'Please enter a valid email address.', variant: 'destructive' })
      return
    }
    signup.mutate(email.trim())
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <Label htmlFor="newsletter-email" className="sr-only">
        Email address
      </Label>
      <Input
        id="newsletter-email"
        type="email"
        placeholder="you@example.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        className="border-slate-700 bg-slate-800 text-white placeholder:text-slate-500"
      />
      <Button type="submit" disabled={signup.isPending}>
        {signup.isPending ? 'Subscribing...' : 'Subscribe'}
      </Button>
    </form>
  )
}

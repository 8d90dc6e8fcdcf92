import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'

/** The footer form's only client rule: something with an '@' in it. */
export function isNewsletterEmail(email: string) {
  return email.trim() !== '' && email.includes('@')
}

export async function newsletterSignup(email: string) {
  await apiRequest('POST', '/api/newsletter-signup', { email })
}

export function useNewsletterSignup() {
  return useMutation({
    mutationFn: newsletterSignup,
    onSuccess: () => {
      toast({
        title: 'Welcome to the pack!',
        description: "You'll receive weekly Shark Tips about QR codes and marketing strategies.",
      })
    },
    onError: () => {
      toast({
        title: 'Subscription failed',
        description: 'Please try again later or contact support.',
        variant: 'destructive',
      })
    },
  })
}

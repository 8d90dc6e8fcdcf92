import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { roles, type Role } from '@/lib/workspace'

// What the Members page's cards share.

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

export function formatDate(iso: string | undefined) {
  const date = new Date(iso ?? '')
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date)
}

export const failed = (title: string) => (error: unknown) =>
  toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })

/** The roles the caller may hand out: only owners make owners. */
export function assignable(myRole: Role): Role[] {
  return myRole === 'owner' ? roles : roles.filter((r) => r !== 'owner')
}

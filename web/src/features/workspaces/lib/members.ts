import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { roles, type Role } from '@/lib/workspace'
import { formatDate as formatDay } from '@/lib/dates'

// What the Members page's cards share.

export function formatDate(iso: string | undefined) {
  return iso ? formatDay(iso) : ''
}

export const failed = (title: string) => (error: unknown) =>
  toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })

/** The roles the caller may hand out: only owners make owners. */
export function assignable(myRole: Role): Role[] {
  return myRole === 'owner' ? roles : roles.filter((r) => r !== 'owner')
}

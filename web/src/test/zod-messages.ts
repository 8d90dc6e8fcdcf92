import type { z } from 'zod'

/** Every message by field; a field with two messages fails the comparison by showing both. */
export function zodMessages(result: z.ZodSafeParseResult<unknown>) {
  const byField: Record<string, string> = {}
  if (result.success) return byField
  for (const issue of result.error.issues) {
    const field = issue.path.join('.')
    byField[field] = byField[field] ? `${byField[field]} | ${issue.message}` : issue.message
  }
  return byField
}

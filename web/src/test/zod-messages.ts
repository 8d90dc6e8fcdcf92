/** A safeParse result of zod or zod/mini, as far as the messages go. */
type ParseResult = { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }

/** Every message by field; a field with two messages fails the comparison by showing both. */
export function zodMessages(result: ParseResult) {
  const byField: Record<string, string> = {}
  if (result.success) return byField
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.')
    byField[field] = byField[field] ? `${byField[field]} | ${issue.message}` : issue.message
  }
  return byField
}

/** 'free' → 'Free', 'past_due' → 'Past due'; Free when the status is missing (spec 02 §2). */
export function subscriptionLabel(status: string | null | undefined) {
  const text = (status || 'free').replaceAll('_', ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * What Premium adds to a free account, and what the 3-day trial gives
 * while it runs: the server's premium rights (internal/server, premium),
 * listed on /subscribe and in the dashboard's trial banners. dynamicLimit
 * is the free accounts' cap (SQUARELY_DYNAMIC_LIMIT), when known.
 */
export function premiumPerks(dynamicLimit?: number): string[] {
  const free = dynamicLimit ? ` (free accounts keep up to ${dynamicLimit})` : ''
  return [`Unlimited dynamic QR codes${free}`, 'Bulk jobs and duplicates of dynamic codes without a cap', 'Hosted pages beyond the free 200']
}

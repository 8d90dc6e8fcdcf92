import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/**
 * The serious and critical WCAG 2.x A/AA violations on the page (or inside
 * selector), one line per node with what to fix; [] when there are none.
 */
export async function violations(page: Page, selector?: string) {
  // Colours are read as drawn: a dialog still fading in over its overlay
  // reads as low contrast (4.12:1 once in CI, on a slow frame). Endless
  // animations (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
  let axe = new AxeBuilder({ page })
  if (selector) axe = axe.include(selector)
  // label-content-name-mismatch (WCAG 2.5.3: a control's name holds its
  // visible text) is still marked experimental, so no tag turns it on.
  const results = await axe
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join(' ') ?? ''}`))
}

// The Edit Dynamic QR Code dialog's layout on a phone (issue 39): each tab's
// panel scrolls on its own, below the title and the tabs, and its footer
// (Save) stays pinned to the panel's bottom. The panel's small side inset
// keeps its fields' focus rings inside the scrolled area; none at the bottom,
// where the footer is last and would leave a strip of content below it.
// The scroll padding, a footer's height (two stacked buttons on a phone),
// keeps a field scrolled to (focused, or a refusal's) out from under it.

/** A tab's panel: takes the dialog's remaining height and scrolls. */
export const editPanel = 'min-h-0 flex-1 overflow-y-auto scroll-pb-32 px-1 sm:scroll-pb-20'

/** A panel's footer, always in view at the panel's bottom. */
export const stickyFooter = 'sticky bottom-0 z-10 -mx-1 border-t border-slate-200 bg-white px-1 py-3'

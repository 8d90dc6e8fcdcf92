// The Edit Dynamic QR Code dialog's layout on a phone (issue 39): each tab's
// panel scrolls on its own, below the title and the tabs, and its footer
// (Save) stays pinned to the panel's bottom. The panel's small inset keeps
// its fields' focus rings inside the scrolled area.

/** A tab's panel: takes the dialog's remaining height and scrolls. */
export const editPanel = 'min-h-0 flex-1 overflow-y-auto px-1 pb-1'

/** A panel's footer, always in view at the panel's bottom. */
export const stickyFooter = 'sticky bottom-0 z-10 -mx-1 -mb-1 border-t border-slate-200 bg-white px-1 py-3'

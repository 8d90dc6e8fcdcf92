/**
 * A closed select's button: Radix's select (./select) and a button that
 * stands in for it until its code loads look the same, so nothing moves
 * when one replaces the other.
 */
export const selectTriggerClass =
  'flex h-10 w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-left text-sm text-slate-900 shadow-sm focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30 disabled:cursor-not-allowed disabled:opacity-50 data-[placeholder]:text-slate-400 [&>span]:truncate'

import type { BrandKit } from '../api/brand-kits'

/** A kit's colours at a glance: its foreground as a code-like pattern on its background. */
export function KitSwatch({ kit }: { kit: BrandKit }) {
  const corner = typeof kit.outerCornerColor === 'string' && kit.outerCornerColor ? kit.outerCornerColor : kit.fgColor
  return (
    <span
      aria-hidden="true"
      className="grid size-10 shrink-0 grid-cols-3 gap-0.5 rounded-md border border-slate-200 p-1"
      style={{ backgroundColor: kit.bgColor }}
    >
      {[corner, kit.fgColor, corner, kit.fgColor, kit.bgColor, kit.fgColor, corner, kit.fgColor, kit.fgColor].map((color, i) => (
        <span key={i} className="rounded-[2px]" style={{ backgroundColor: color }} />
      ))}
    </span>
  )
}

import { cn } from '@/lib/utils'
import { useBrand } from '@/lib/white-label'

/** The Squarely mark: three finder squares and a scatter of modules, in the brand colours. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      {[
        [6, 6],
        [17, 6],
        [6, 17],
      ].map(([x, y]) => (
        <g key={`${x}-${y}`}>
          <rect x={x} y={y} width="9" height="9" rx="2" fill="#fff" />
          <rect x={x + 2.5} y={y + 2.5} width="4" height="4" rx="1" className="fill-secondary" />
        </g>
      ))}
      {[
        [18, 18],
        [23, 18],
        [18, 23],
        [23, 23],
      ].map(([x, y]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width="3" height="3" rx="0.8" fill="#fff" />
      ))}
    </svg>
  )
}

/**
 * The site's logo and name: a white-label client's own on its host (its logo,
 * else the mark in its colours), credited 'by Squarely' unless it removes our branding.
 */
export function Logo({ className }: { className?: string }) {
  const brand = useBrand()
  return (
    <span className={cn('inline-flex items-center gap-2 text-xl font-bold tracking-tight text-slate-900', className)}>
      {brand?.logoUrl ? <img src={brand.logoUrl} alt="" className="size-8 object-contain" /> : <LogoMark />}
      {brand ? brand.name : 'Squarely'}
      {brand && !brand.removeSquarelyBranding && <span className="text-xs font-medium text-slate-500">by Squarely</span>}
    </span>
  )
}

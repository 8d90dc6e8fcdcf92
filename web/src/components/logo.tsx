import { cn } from '@/lib/utils'

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

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 text-xl font-bold tracking-tight text-slate-900', className)}>
      <LogoMark />
      Squarely
    </span>
  )
}

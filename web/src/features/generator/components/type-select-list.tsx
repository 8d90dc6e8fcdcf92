import { useNavigate } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { qrTypes, type QrType } from '@/lib/qr-types'
import { pageTypes } from '@/lib/page-types'
import { isBlockedType, needsAccount } from '../lib/qr-types'
import { TypeName, type TypeSelectProps } from './type-select'

/**
 * The type list (Radix's select), which replaces TypeSelect's stand-in
 * button once the user reaches for it: open at once when that was a press
 * (open), with the focus when the button had it (autoFocus).
 */
export function TypeSelectList({ id, value, onChoose, signedIn, open, autoFocus }: TypeSelectProps & { open: boolean; autoFocus: boolean }) {
  const navigate = useNavigate()
  // A hosted page type (issue 35) opens the page editor, which saves a
  // dynamic code pointing at the new page; visitors sign up first.
  const choose = (v: string) => {
    if (v.startsWith('page:')) void navigate(`/pages/new/${v.slice(5)}`)
    else onChoose(v as QrType)
  }
  return (
    <Select value={value} onValueChange={choose} defaultOpen={open}>
      <SelectTrigger id={id} aria-label="QR code type" autoFocus={autoFocus}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent className="max-h-72">
        {qrTypes.map(({ value: type }) => {
          let badge: 'Soon' | 'Premium' | undefined
          if (isBlockedType(type)) badge = 'Soon'
          else if (needsAccount(type) && !signedIn) badge = 'Premium'
          return (
            <SelectItem
              key={type}
              value={type}
              aside={
                badge && (
                  <Badge tone={badge === 'Soon' ? 'amber' : 'violet'} className="text-[10px] uppercase tracking-wide">
                    {badge}
                  </Badge>
                )
              }
            >
              <TypeName type={type} />
            </SelectItem>
          )
        })}
        {pageTypes.map(({ value: type, label }) => (
          <SelectItem
            key={`page:${type}`}
            value={`page:${type}`}
            aside={
              <Badge tone="violet" className="text-[10px] uppercase tracking-wide">
                Page
              </Badge>
            }
          >
            {label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

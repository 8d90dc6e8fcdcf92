import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { qrTypes, type QrType } from '@/lib/qr-types'
import { isBlockedType, needsAccount } from '../lib/qr-types'
import { Badge } from '@/components/ui/badge'

/** The types by label, in a list of limited height that scrolls; badges mark the types a choice may refuse. */
export function TypeSelect({
  id,
  value,
  onChoose,
  signedIn,
}: {
  id: string
  value: QrType
  onChoose: (type: QrType) => void
  signedIn: boolean
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>QR code type</Label>
      <Select value={value} onValueChange={(v) => onChoose(v as QrType)}>
        <SelectTrigger id={id} aria-label="QR code type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent className="max-h-72">
          {qrTypes.map(({ value: type, label, icon: Icon }) => {
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
                <span className="inline-flex items-center gap-2">
                  <Icon className="size-4 text-slate-500" aria-hidden="true" />
                  {label}
                </span>
              </SelectItem>
            )
          })}
        </SelectContent>
      </Select>
    </div>
  )
}

import {
  Bitcoin,
  Calendar,
  Contact,
  CreditCard,
  FileText,
  Globe,
  Image,
  Mail,
  MapPin,
  MessageSquare,
  QrCode,
  ScanBarcode,
  Share2,
  Smartphone,
  Star,
  Type,
  Wifi,
  type LucideIcon,
} from 'lucide-react'

/**
 * The generator's types with their labels and icons: the 13 of spec 01 §3 in
 * the spec's order, then plain text and WiFi (issue 10), then GS1 Digital Link
 * (issue 38; payload.Types on the server).
 */
export const qrTypes = [
  { value: 'url', label: 'Website', icon: Globe },
  { value: 'contact', label: 'Contact', icon: Contact },
  { value: 'payment', label: 'Payment', icon: CreditCard },
  { value: 'pdf', label: 'PDF', icon: FileText },
  { value: 'social', label: 'Social Media', icon: Share2 },
  { value: 'images', label: 'Images', icon: Image },
  { value: 'ratings', label: 'Ratings', icon: Star },
  { value: 'email', label: 'Email', icon: Mail },
  { value: 'location', label: 'Location', icon: MapPin },
  { value: 'events', label: 'Events', icon: Calendar },
  { value: 'apps', label: 'Apps', icon: Smartphone },
  { value: 'sms', label: 'SMS', icon: MessageSquare },
  { value: 'bitcoin', label: 'Bitcoin', icon: Bitcoin },
  { value: 'text', label: 'Plain Text', icon: Type },
  { value: 'wifi', label: 'WiFi', icon: Wifi },
  { value: 'gs1', label: 'GS1 Digital Link', icon: ScanBarcode },
] as const satisfies readonly { value: string; label: string; icon: LucideIcon }[]

export type QrType = (typeof qrTypes)[number]['value']

export function isQrType(value: unknown): value is QrType {
  return typeof value === 'string' && qrTypes.some((t) => t.value === value)
}

/** Types refused for everyone for now (the server refuses them too: payload.Blocked). */
export function isBlockedType(type: QrType): boolean {
  return type === 'events' || type === 'sms' || type === 'bitcoin'
}

/** The type's label; a type this app does not know (a saved record's) shows as it is. */
export function qrTypeLabel(type: string): string {
  return qrTypes.find((t) => t.value === type)?.label ?? type
}

const icons: Record<string, LucideIcon> = Object.fromEntries(qrTypes.map((t) => [t.value, t.icon]))

/**
 * The type's icon: `<QrTypeIcon type={code.qrType} />`. A component of its own,
 * as one picked by a call during render would be remade on every render.
 */
export function QrTypeIcon({ type, className }: { type: string; className?: string }) {
  const Icon = icons[type] ?? QrCode
  return <Icon className={className} aria-hidden="true" />
}

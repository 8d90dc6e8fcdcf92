import {
  AppWindow,
  Calendar,
  Coins,
  CreditCard,
  FileText,
  Globe,
  Image,
  Mail,
  MapPin,
  MessageSquare,
  QrCode,
  Share2,
  Star,
  UserRound,
  type LucideIcon,
} from 'lucide-react'

const icons: Record<string, LucideIcon> = {
  url: Globe,
  contact: UserRound,
  payment: CreditCard,
  pdf: FileText,
  social: Share2,
  images: Image,
  ratings: Star,
  email: Mail,
  location: MapPin,
  events: Calendar,
  apps: AppWindow,
  sms: MessageSquare,
  bitcoin: Coins,
}

export function TypeIcon({ qrType, className }: { qrType: string; className?: string }) {
  const Icon = icons[qrType] ?? QrCode
  return <Icon className={className} aria-hidden="true" />
}

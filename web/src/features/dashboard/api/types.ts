import { imageVersion } from '@/lib/code-image'

/** The fields of a saved code the dashboard reads (docs/API.md "Records"). */
interface CodeBase {
  id: number
  name: string
  qrType: string
  data: string
  scanCount: number
  isPaused: boolean
  createdAt: string
  /** A payment code's successful payments and their total in cents (issue 11). */
  payments?: { count: number; total: number }
  /** The workspace's tags on the code (issue 22): ids, or the tags themselves. */
  tags?: (number | TagRef)[]
  /** The folder the code is in, or null. */
  folderId?: number | null
  /** Drawn in a frame: its files are 20% wider and 30% higher than the code. */
  enableFrame?: boolean
}

/** A tag as a code record may carry it. */
export interface TagRef {
  id: number
  name?: string
  color?: string
}

/** A workspace tag (GET /api/tags). */
export interface Tag {
  id: number
  name: string
  color: string
}

/** A workspace folder (GET /api/folders). */
export interface Folder {
  id: number
  name: string
}

/** The ids of a code's tags, whichever way the record carries them. */
export function tagIdsOf(code: SavedCode): number[] {
  return (code.tags ?? []).map((t) => (typeof t === 'number' ? t : t.id))
}

export interface StaticCode extends CodeBase {
  qrMode: 'static'
}

export interface DynamicCode extends CodeBase {
  qrMode: 'dynamic'
  destination: string
  shortCode: string
  shortUrl: string
  lastScannedAt: string | null
  pausedAt: string | null
  updatedAt: string
  /** A password guards its scans (PUT …/password). */
  isProtected: boolean
  /** Smart routing (PUT …/routing, docs/API.md "Smart routing"); null when unset. */
  routing: Routing | null
  /** Redirects counted against routing.scanLimit. */
  limitScans: number
  /** The workspace's verified domain the code prints (docs/API.md "Custom domains"); null and "" for the base URL. */
  domainId?: number | null
  domain?: string
  /** What the link checker last found of its destinations (issue 24). */
  health: CodeHealth
  /** Its alerts (mail and webhook events) are off (PUT …/alerts). */
  alertsMuted: boolean
}

/** A dynamic code's destination health: down after two failed checks in a row. */
export interface CodeHealth {
  status: 'unknown' | 'ok' | 'down'
  /** Why url fails, e.g. "HTTP 404"; empty when none does. */
  reason: string
  url: string
  /** The first failed check of the streak. */
  since: string | null
  checkedAt: string | null
}

/** A dynamic code's smart routing (issue 23). */
export interface Routing {
  rules: RoutingRule[]
  split: SplitVariant[]
  startsAt: string | null
  expiresAt: string | null
  scanLimit: number | null
  afterEnd: string | null
}

export type RoutingRule = {
  when: {
    os?: string[]
    country?: string[]
    /** Region names or ISO 3166-2 codes and city names, matched by the server's city database. */
    region?: string[]
    city?: string[]
    language?: string[]
    days?: string[]
    from?: string
    to?: string
    timeZone?: string
  }
} & RouteTarget

/** Where a rule or split variant sends its scans: a URL, or one of the workspace's hosted pages, answered as itself. */
export interface RouteTarget {
  destination?: string
  pageId?: number
}

export type SplitVariant = RouteTarget & { weight: number }

export type SavedCode = StaticCode | DynamicCode

/** The API path of a saved code: static and dynamic codes live under different roots. */
export function codePath(code: SavedCode) {
  return `${code.qrMode === 'dynamic' ? '/api/dynamic-qrcodes' : '/api/qrcodes'}/${code.id}`
}

/** The server's rendering of a saved code; a picture to show is addressed by what it shows (imageVersion). */
export function codeImageUrl(code: SavedCode) {
  return `${codePath(code)}/image?format=svg&v=${imageVersion(code)}`
}

/** GET /api/trial-status (spec 01 §3 "Trial status"). */
export interface TrialStatus {
  isActive: boolean
  hasExpired: boolean
  /** The signed-in account started its one trial, here or in another workspace. */
  trialUsed: boolean
  daysRemaining: number
  subscriptionStatus: string | null
  dynamicQRUsed: number
  dynamicQRLimit: number
  canCreateDynamicQR: boolean
}

/** A code's key across both tables (ids are per table). */
export function codeKey(code: SavedCode) {
  return `${code.qrMode}-${code.id}`
}

import { ApiError, apiJson, apiRequest } from '@/lib/api-client'
import type { QrType } from '@/lib/qr-types'
import type { TypeValues } from '../lib/schemas'

/** What the server needs to draw a code: the type, its fields and the style fields. */
export interface CodeBody {
  qrType: QrType
  [field: string]: string | number | boolean | null | undefined
}

export interface GenerateAnswer {
  /** The recorded generation; absent for temporary previews. */
  id?: number
  /** SVG markup. */
  qrCode: string
  /** The exact encoded text. */
  data: string
}

/** A saved static or dynamic code as the API answers it (docs/API.md, "Records"). */
export interface SavedCode {
  id: number
  name: string
  qrType: string
  qrMode: 'static' | 'dynamic'
  data?: string
  shortCode?: string
  shortUrl?: string
  [field: string]: unknown
}

export interface UploadAnswer {
  id: number
  fileName: string
  pdfUrl?: string
  imageUrl?: string
  logoUrl?: string
}

export type DownloadFormat = 'png' | 'svg' | 'pdf' | 'eps'

const SESSION_KEY = 'qrSessionId'

/** The browser's anonymous id for generation records; made once and kept in localStorage. */
export function anonymousSessionId(): string {
  try {
    const existing = localStorage.getItem(SESSION_KEY)
    if (existing) return existing
    const id = crypto.randomUUID()
    localStorage.setItem(SESSION_KEY, id)
    return id
  } catch {
    return ''
  }
}

/** POST /api/generate-qrcode; a live preview passes its query's signal so a newer one cancels it. */
export function generateCode(body: CodeBody, signal?: AbortSignal): Promise<GenerateAnswer> {
  return fetch('/api/generate-qrcode', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  }).then(async (res) => {
    const text = await res.text()
    if (!res.ok) throw new ApiError(res.status, res.statusText, text)
    return JSON.parse(text) as GenerateAnswer
  })
}

/** What a download may choose (docs/API.md): PNG width, no background, error correction without a logo, print output. */
export interface DownloadOptions {
  pixels?: number
  transparent?: boolean
  errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'
  /** Printed width with the quiet zone (PNG, PDF, EPS); replaces pixels. */
  sizeMm?: number
  /** PNG density with sizeMm. */
  dpi?: number
  /** PDF and EPS colours for print. */
  cmyk?: boolean
  /** How far away the reader stands, for the preflight only. */
  distanceCm?: number
}

/** POST /api/preflight's answer (docs/API.md "Print preflight"). */
export interface PreflightAnswer {
  ok: boolean
  modules: number
  moduleMm: number
  minModuleMm: number
  maxDistanceCm: number
  minSizeMm: number
  warnings: string[]
  /** A GS1 Digital Link code's verdict by GS1's rules for consumer units. */
  gs1?: { ok: boolean; xDimensionMm: number; problems: string[] }
}

/** Asks what a print size means for a code: scanning distance, module size, warnings. */
export type PreflightCheck = (sizeMm: number, distanceCm?: number) => Promise<PreflightAnswer>

/** The preflight of a code not saved yet, from its body. */
export function preflight(body: CodeBody, sizeMm: number, distanceCm?: number): Promise<PreflightAnswer> {
  return apiJson<PreflightAnswer>('POST', '/api/preflight', { ...body, sizeMm, distanceCm })
}

/** The preflight of a saved code, as the server draws it (a dynamic code's short URL). */
export function preflightSaved(code: Pick<SavedCode, 'id' | 'qrMode'>, sizeMm: number, distanceCm?: number): Promise<PreflightAnswer> {
  const query = new URLSearchParams({ sizeMm: String(sizeMm) })
  if (distanceCm !== undefined) query.set('distanceCm', String(distanceCm))
  return apiJson<PreflightAnswer>('GET', `${savedCodePath(code)}/preflight?${query}`)
}

/** The file options a format takes (docs/API.md "Print output"): what does not apply to it is left out. */
function fileOptions(format: DownloadFormat, options: DownloadOptions) {
  return {
    pixels: format === 'png' && !options.sizeMm ? options.pixels : undefined,
    sizeMm: format !== 'svg' ? options.sizeMm : undefined,
    dpi: format === 'png' && options.sizeMm ? options.dpi : undefined,
    colorSpace: (format === 'pdf' || format === 'eps') && options.cmyk ? 'cmyk' : undefined,
    transparent: options.transparent || undefined,
  }
}

/** A file from POST /api/download-qrcode: the same body as the generation, plus the format and options. */
export async function downloadGenerated(
  body: CodeBody,
  format: DownloadFormat,
  generationId?: number,
  options: DownloadOptions = {},
): Promise<Blob> {
  const res = await apiRequest('POST', '/api/download-qrcode', {
    ...body,
    format,
    generationId,
    ...fileOptions(format, options),
    errorCorrectionLevel: body.logoId === undefined ? options.errorCorrectionLevel : undefined,
  })
  return res.blob()
}

/** A saved code's file, rendered by the server from what it stored; its error correction is the saved one. */
export async function downloadSaved(code: Pick<SavedCode, 'id' | 'qrMode'>, format: DownloadFormat, options: DownloadOptions = {}): Promise<Blob> {
  const query = new URLSearchParams({ format, download: '1' })
  for (const [key, value] of Object.entries(fileOptions(format, options))) {
    if (value !== undefined) query.set(key, value === true ? '1' : String(value))
  }
  const res = await apiRequest('GET', `${savedCodePath(code)}/image?${query}`)
  return res.blob()
}

/** The multipart form of a save: every field as text, booleans as "true"/"false", empty values left out. */
export function toFormData(fields: Record<string, unknown>): FormData {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === '') continue
    form.append(key, typeof value === 'string' ? value : String(value))
  }
  return form
}

export function saveStaticCode(form: FormData): Promise<SavedCode> {
  return apiJson<SavedCode>('POST', '/api/qrcodes', form)
}

export function saveDynamicCode(form: FormData): Promise<SavedCode> {
  return apiJson<SavedCode>('POST', '/api/dynamic-qrcodes', form)
}

/** A saved code's API path: static and dynamic codes live under different roots. */
export function savedCodePath(code: Pick<SavedCode, 'id' | 'qrMode'>) {
  return `/api/${code.qrMode === 'dynamic' ? 'dynamic-qrcodes' : 'qrcodes'}/${code.id}`
}

/** PUT /api/qrcodes/{id}: the create view's regenerate replaces the static code it made. */
export function updateStaticCode(id: number, form: FormData): Promise<SavedCode> {
  return apiJson<SavedCode>('PUT', `/api/qrcodes/${id}`, form)
}

/**
 * PUT /api/dynamic-qrcodes/{id}: a dynamic code's new destination and, from the create view's
 * regenerate, the type and fields it is now made from; its short code stays.
 */
export function setDestination(
  id: number,
  destination: string,
  content?: { qrType: string; qrData: Record<string, unknown> },
): Promise<SavedCode> {
  return apiJson<SavedCode>('PUT', `/api/dynamic-qrcodes/${id}`, { destination, ...content })
}

/** PUT …/{id}/style: the code's new style (the style fields, logoId, a dynamic code's errorCorrectionLevel). */
export function restyleCode(code: Pick<SavedCode, 'id' | 'qrMode'>, form: FormData): Promise<SavedCode> {
  return apiJson<SavedCode>('PUT', `${savedCodePath(code)}/style`, form)
}

/** POST …/{id}/style/preview: the code drawn in a style, nothing saved. */
export async function previewStyle(code: Pick<SavedCode, 'id' | 'qrMode'>, form: FormData, signal?: AbortSignal): Promise<GenerateAnswer> {
  const res = await fetch(`${savedCodePath(code)}/style/preview`, { method: 'POST', credentials: 'include', body: form, signal })
  const text = await res.text()
  if (!res.ok) throw new ApiError(res.status, res.statusText, text)
  return JSON.parse(text) as GenerateAnswer
}

export interface TrackGeneration {
  qrCodeId?: number
  qrData: string | TypeValues
  qrType: QrType
  foregroundColor: string
  backgroundColor: string
  hasLogo: boolean
  sessionId: string
}

export function trackGeneration(body: TrackGeneration) {
  return apiJson<{ id: number }>('POST', '/api/track-generation', body)
}

export function uploadLogo(file: File) {
  const form = new FormData()
  form.append('logoFile', file)
  return apiJson<UploadAnswer>('POST', '/api/upload-logo', form)
}

/** POST /api/upload-pdf or /api/upload-image; the form fields take the kind as their prefix (pdfFile, imageTitle, …). */
export function uploadDocument(kind: 'pdf' | 'image', file: File, title: string, description: string) {
  const form = new FormData()
  form.append(`${kind}File`, file)
  form.append(`${kind}Title`, title)
  form.append(`${kind}Description`, description)
  return apiJson<UploadAnswer>('POST', `/api/upload-${kind}`, form)
}

export interface SubdomainInfo {
  isSubdomain: boolean
  qrType: string | null
  subdomain: string | null
}

export const subdomainInfoQueryKey = ['/api/subdomain-info']

export interface TrialStatus {
  isActive: boolean
  hasExpired: boolean
  daysRemaining: number
  subscriptionStatus?: string | null
  dynamicQRUsed: number
  dynamicQRLimit: number
  canCreateDynamicQR: boolean
}

export const trialStatusQueryKey = ['/api/trial-status']

/** The query keys of the saved-code lists (the dashboard reads /api/codes), refreshed after a save. */
export const savedListKeys = [['/api/codes'], ['/api/qrcodes'], ['/api/dynamic-qrcodes']]


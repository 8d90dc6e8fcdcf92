import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { subdomainInfoQueryKey, type SubdomainInfo } from '../api/generator-api'
import { isQrType, type QrType } from '@/lib/qr-types'

/** The session-storage key the Templates page leaves its choice under (spec 02 §2). */
export const TEMPLATE_KEY = 'selectedTemplate'

export interface Preselection {
  type: QrType
  /** A template's sample data for the type's fields. */
  data?: unknown
  /** A template's title. */
  title?: string
}

/** The template the Templates page stored for this session, if it names a known type. */
export function readStoredTemplate(): Preselection | null {
  try {
    const raw = sessionStorage.getItem(TEMPLATE_KEY)
    if (!raw) return null
    const parsed = JSON.parse(raw) as { type?: unknown; data?: unknown; title?: unknown }
    if (!isQrType(parsed.type)) return null
    return { type: parsed.type, data: parsed.data, title: typeof parsed.title === 'string' ? parsed.title : undefined }
  } catch {
    return null
  }
}

/**
 * The type to start with: a stored template first, then ?qr={type}. Read
 * once; the stored template is removed once applied, so it applies once.
 */
export function useInitialPreselection(): Preselection | null {
  const [searchParams] = useSearchParams()
  const [initial] = useState<Preselection | null>(() => {
    const template = readStoredTemplate()
    if (template) return template
    const qr = searchParams.get('qr')
    return isQrType(qr) ? { type: qr } : null
  })
  useEffect(() => {
    try {
      sessionStorage.removeItem(TEMPLATE_KEY)
    } catch {
      // Storage may be unavailable (private mode); nothing to clear then.
    }
  }, [])
  return initial
}

/**
 * Calls apply once with the type a subdomain names (GET /api/subdomain-info),
 * unless the page already preselected one.
 */
export function useSubdomainPreselection(skip: boolean, apply: (type: QrType) => void) {
  const { data } = useQuery<SubdomainInfo>({ queryKey: subdomainInfoQueryKey, enabled: !skip })
  const done = useRef(false)
  const applyRef = useRef(apply)
  useEffect(() => {
    applyRef.current = apply
  })
  useEffect(() => {
    if (skip || done.current || !data?.isSubdomain || !isQrType(data.qrType)) return
    done.current = true
    applyRef.current(data.qrType)
  }, [data, skip])
}

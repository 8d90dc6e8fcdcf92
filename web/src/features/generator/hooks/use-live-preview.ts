import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { generateCode, type CodeBody } from '../api/generator-api'
import type { QrType } from '@/lib/qr-types'
import { typeSchemas, type TypeValues } from '../lib/schemas'
import { createUrlPreviewScheduler } from '../lib/url-preview'
import { useDebouncedValue } from '@/lib/use-debounced-value'

/** How long other changes (other types' fields, colours, frame text) settle before a preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 300

/**
 * The address the url type previews, per spec 01 §5's two timers; null
 * while there is nothing to show.
 */
export function useUrlPreviewAddress(raw: string, schemaValid: boolean, active: boolean): string | null {
  const [address, setAddress] = useState<string | null>(null)
  const scheduler = useRef<ReturnType<typeof createUrlPreviewScheduler>>(null)
  useEffect(() => {
    const s = createUrlPreviewScheduler(setAddress)
    scheduler.current = s
    return () => s.cancel()
  }, [])
  useEffect(() => {
    if (active) scheduler.current?.update(raw, schemaValid)
    else scheduler.current?.cancel()
  }, [raw, schemaValid, active])
  return active ? address : null
}

export interface LivePreview {
  /** SVG markup of the latest preview. */
  svg?: string
  /** The text the preview encodes. */
  data?: string
  loading: boolean
  /** The server's reason when the preview could not be drawn. */
  error?: unknown
  /** Whether the form holds enough to preview at all. */
  ready: boolean
}

/**
 * The live preview: a temporary generation by the server for the form as it
 * stands (so the preview is the very code a download gives). The url type
 * follows its timers; other types preview once their fields are valid.
 */
export function useLivePreview(type: QrType, values: TypeValues, style: Record<string, unknown>): LivePreview {
  const valid = typeSchemas[type].safeParse(values).success
  const url = type === 'url' ? String(values.url ?? '') : ''
  const address = useUrlPreviewAddress(url, valid, type === 'url')

  // String keys: equal forms ask once, and the debounces see real changes only.
  // The url type has its own timers; other types' fields and the style settle here.
  const styleKey = useDebouncedValue(JSON.stringify(style), PREVIEW_DEBOUNCE_MS)
  const settledFields = useDebouncedValue(valid && type !== 'url' ? JSON.stringify({ qrType: type, ...values }) : null, PREVIEW_DEBOUNCE_MS)
  let fieldsKey: string | null = null
  if (type === 'url') fieldsKey = address ? JSON.stringify({ qrType: type, url: address }) : null
  // A change of type or an invalid form stops the preview at once, without waiting for the debounce.
  else if (valid && settledFields && (JSON.parse(settledFields) as CodeBody).qrType === type) fieldsKey = settledFields
  const key = fieldsKey ? JSON.stringify({ ...(JSON.parse(fieldsKey) as CodeBody), ...JSON.parse(styleKey), temporary: true }) : null

  const query = useQuery({
    queryKey: ['generator-preview', key],
    queryFn: ({ signal }) => generateCode(JSON.parse(key as string) as CodeBody, signal),
    enabled: key !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  })

  if (key === null) return { loading: false, ready: false }
  return {
    svg: query.isError ? undefined : query.data?.qrCode,
    data: query.isError ? undefined : query.data?.data,
    loading: query.isFetching,
    error: query.isError ? query.error : undefined,
    ready: true,
  }
}

import type { QueryFunction } from '@tanstack/react-query'
import { fetchFirst } from './boot'

/**
 * A non-OK answer from the server. The message is `${status}: ${body}` (or the
 * status text when the body is empty), as the request conventions require; the
 * parts are kept too so callers can read the server's own message.
 */
export class ApiError extends Error {
  readonly status: number
  readonly body: string

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`)
    this.name = 'ApiError'
    this.status = status
    this.body = body
  }
}

async function throwIfNotOk(res: Response) {
  if (!res.ok) {
    const body = await res.text()
    throw new ApiError(res.status, res.statusText, body)
  }
}

/**
 * Sends a request with the session cookie. A plain value is sent as JSON with
 * a JSON content type; FormData goes as multipart (the browser sets the
 * boundary); no body means no content type at all.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' }
  if (data instanceof FormData) {
    init.body = data
  } else if (data !== undefined) {
    init.headers = { 'Content-Type': 'application/json' }
    init.body = JSON.stringify(data)
  }
  const res = await (method === 'GET' ? fetchFirst(url, init) : fetch(url, init))
  await throwIfNotOk(res)
  return res
}

/** Like apiRequest, and parses the answer as JSON (null when it has no body). */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data)
  const text = await res.text()
  return (text ? JSON.parse(text) : null) as T
}

export type UnauthorizedBehavior = 'returnNull' | 'throw'

/** A query function that GETs the query key joined as a path. */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetchFirst(queryKey.join('/'), { credentials: 'include', signal })
    if (on401 === 'returnNull' && res.status === 401) {
      return null
    }
    await throwIfNotOk(res)
    return (await res.json()) as T
  }
}

/** Answers whose body may name the fields at fault: invalid (400), taken (409), refused (422). */
const fieldStatuses = new Set([400, 409, 422])

/** The field messages of a 400, 409 or 422 answer, if it has any. */
export function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError) || !fieldStatuses.has(error.status)) return undefined
  try {
    const parsed = JSON.parse(error.body) as { errors?: Record<string, string> }
    return parsed.errors && typeof parsed.errors === 'object' ? parsed.errors : undefined
  } catch {
    return undefined
  }
}

/** An answer's message for one field, else a 400's general message. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  const own = serverFieldErrors(error)?.[field]
  if (own) return own
  return error instanceof ApiError && error.status === 400 ? serverMessage(error) : undefined
}

/**
 * The server's own words for a failed call: the "message" of a JSON error
 * body, or a short plain-text body. Undefined when there is nothing useful
 * (network failure, empty or HTML body), so callers fall back to their text.
 */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  const body = error.body.trim()
  if (!body) return undefined
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message || undefined
    }
    return undefined
  } catch {
    return body.startsWith('<') || body.length > 200 ? undefined : body
  }
}

/** The machine-readable "code" of a JSON error body (e.g. two_factor_required), if it has one. */
export function serverErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  try {
    const parsed: unknown = JSON.parse(error.body)
    return parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'string' ? parsed.code : undefined
  } catch {
    return undefined
  }
}

/** What a failed call's toast says when there was no answer at all. */
export const unreachableMessage = 'Could not reach the server, try again'

/**
 * The words for a failed call: the server's own message (or, lacking one,
 * its first field's), "Could not reach the server, try again" when no
 * answer came (fetch rejects with a TypeError), else fallback.
 */
export function failureMessage(error: unknown, fallback = 'Please try again.'): string {
  if (error instanceof TypeError) return unreachableMessage
  return serverMessage(error) ?? Object.values(serverFieldErrors(error) ?? {})[0] ?? fallback
}

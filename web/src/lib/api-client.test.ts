import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, apiJson, apiRequest, failureMessage, getQueryFn, serverMessage, unreachableMessage } from './api-client'
import { createQueryClient } from './query-client'

function stub(response: Response) {
  const mock = vi.fn<typeof fetch>(async () => response)
  vi.stubGlobal('fetch', mock)
  return mock
}

function queryContext(queryKey: string[]) {
  return { queryKey, signal: new AbortController().signal, meta: undefined, client: new QueryClient() } as never
}

describe('apiRequest', () => {
  it('sends credentials and no body or content type when there is no data', async () => {
    const mock = stub(new Response(null, { status: 204 }))
    await apiRequest('POST', '/api/logout')
    const [url, init] = mock.mock.calls[0]
    expect(url).toBe('/api/logout')
    expect(init).toEqual({ method: 'POST', credentials: 'include' })
  })

  it('sends a value as JSON with a JSON content type', async () => {
    const mock = stub(new Response('{}'))
    await apiRequest('POST', '/api/login', { username: 'a@b.c', password: 'pw' })
    const init = mock.mock.calls[0][1]
    expect(init?.credentials).toBe('include')
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' })
    expect(init?.body).toBe('{"username":"a@b.c","password":"pw"}')
  })

  it('sends FormData untouched, leaving the multipart content type to the browser', async () => {
    const mock = stub(new Response('{}'))
    const form = new FormData()
    form.append('name', 'menu')
    await apiRequest('POST', '/api/qrcodes', form)
    const init = mock.mock.calls[0][1]
    expect(init?.body).toBe(form)
    expect(init?.headers).toBeUndefined()
    expect(init?.credentials).toBe('include')
  })

  it("throws 'status: body' for a non-OK answer", async () => {
    stub(new Response('{"message":"Username already exists"}', { status: 409, statusText: 'Conflict' }))
    const error = await apiRequest('POST', '/api/register', {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as Error).message).toBe('409: {"message":"Username already exists"}')
    expect((error as ApiError).status).toBe(409)
  })

  it('uses the status text when the body is empty', async () => {
    stub(new Response('', { status: 500, statusText: 'Internal Server Error' }))
    await expect(apiRequest('GET', '/api/qrcodes')).rejects.toThrow('500: Internal Server Error')
  })
})

describe('apiJson', () => {
  it('parses the JSON answer', async () => {
    stub(new Response('{"id":7,"username":"a@b.c"}'))
    await expect(apiJson('POST', '/api/login', {})).resolves.toEqual({ id: 7, username: 'a@b.c' })
  })

  it('gives null for an empty answer', async () => {
    stub(new Response(null, { status: 204 }))
    await expect(apiJson('DELETE', '/api/qrcodes/1')).resolves.toBeNull()
  })
})

describe('getQueryFn', () => {
  it('GETs the query key joined as a path, with credentials', async () => {
    const mock = stub(new Response('[1,2]'))
    const result = await getQueryFn({ on401: 'throw' })(queryContext(['/api/qrcodes', '5']))
    expect(result).toEqual([1, 2])
    expect(mock.mock.calls[0][0]).toBe('/api/qrcodes/5')
    expect(mock.mock.calls[0][1]?.credentials).toBe('include')
  })

  it('returns null on 401 when asked to', async () => {
    stub(new Response('{"message":"Not authenticated"}', { status: 401, statusText: 'Unauthorized' }))
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext(['/api/user']))).resolves.toBeNull()
  })

  it('throws on 401 by default', async () => {
    stub(new Response('', { status: 401, statusText: 'Unauthorized' }))
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/user']))).rejects.toThrow('401: Unauthorized')
  })

  it('still throws other errors when 401 returns null', async () => {
    stub(new Response('boom', { status: 500, statusText: 'Internal Server Error' }))
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext(['/api/user']))).rejects.toThrow('500: boom')
  })
})

describe('serverMessage', () => {
  it('reads the message of a JSON error body', () => {
    expect(serverMessage(new ApiError(409, 'Conflict', '{"message":"Taken","errors":{"username":"Taken"}}'))).toBe('Taken')
  })

  it('reads a short plain-text body', () => {
    expect(serverMessage(new ApiError(400, 'Bad Request', 'Bad input\n'))).toBe('Bad input')
  })

  it('gives nothing for empty, HTML or message-less bodies and for other errors', () => {
    expect(serverMessage(new ApiError(401, 'Unauthorized', ''))).toBeUndefined()
    expect(serverMessage(new ApiError(502, 'Bad Gateway', '<html>oops</html>'))).toBeUndefined()
    expect(serverMessage(new ApiError(400, 'Bad Request', '{"error":"x"}'))).toBeUndefined()
    expect(serverMessage(new TypeError('Failed to fetch'))).toBeUndefined()
  })
})

describe('failureMessage', () => {
  it("says the server's message, else its first field's, else the fallback", () => {
    expect(failureMessage(new ApiError(400, 'Bad Request', '{"message":"Too long","errors":{"name":"Name too long"}}'))).toBe('Too long')
    expect(failureMessage(new ApiError(400, 'Bad Request', '{"errors":{"name":"Name must not contain control or text direction characters"}}'))).toBe(
      'Name must not contain control or text direction characters',
    )
    expect(failureMessage(new ApiError(500, 'Internal Server Error', ''), 'Failed')).toBe('Failed')
    expect(failureMessage(new TypeError('Failed to fetch'))).toBe(unreachableMessage)
  })
})

describe('createQueryClient', () => {
  it('has the conventions: no retry, no refetch, never stale', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions()
    expect(queries?.retry).toBe(false)
    expect(queries?.refetchOnWindowFocus).toBe(false)
    expect(queries?.refetchInterval).toBe(false)
    expect(queries?.staleTime).toBe(Infinity)
    expect(mutations?.retry).toBe(false)
  })

  it('fetches a query by its key when no query function is given', async () => {
    const mock = stub(new Response('{"ok":true}'))
    const client = createQueryClient()
    await expect(client.fetchQuery({ queryKey: ['/api/trial-status'] })).resolves.toEqual({ ok: true })
    expect(mock.mock.calls[0][0]).toBe('/api/trial-status')
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module, over a page holding text as its answers (none: no element). */
async function withPage(text?: string) {
  document.body.innerHTML = ''
  if (text !== undefined) {
    const element = document.createElement('script')
    element.type = 'application/json'
    element.id = 'squarely-boot'
    element.textContent = text
    document.body.append(element)
  }
  vi.resetModules()
  return import('./boot')
}

afterEach(() => vi.restoreAllMocks())

describe('the answers the page carries', () => {
  it('answers each path once, with its status and body, and leaves the page', async () => {
    const boot = await withPage(JSON.stringify({ '/api/user': { status: 200, body: '{"id":1}' }, '/api/trial-status': { status: 401, body: '{"message":"Not authenticated"}' } }))
    const user = boot.bootAnswer('/api/user')
    expect(user?.status).toBe(200)
    expect(await user?.json()).toEqual({ id: 1 })
    expect(boot.bootAnswer('/api/user')).toBeUndefined()
    expect(document.getElementById('squarely-boot')).toBeNull()
    expect(boot.bootAnswer('/api/trial-status')?.status).toBe(401)
  })

  it('sends the rest to the server once the first page is drawn', async () => {
    const boot = await withPage(JSON.stringify({ '/api/user': { status: 200, body: '{"id":1}' } }))
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"id":2}'))
    boot.endBoot()
    const res = await boot.fetchFirst('/api/user', { credentials: 'include' })
    expect(await res.json()).toEqual({ id: 2 })
    expect(fetch).toHaveBeenCalledWith('/api/user', { credentials: 'include' })
  })

  it('asks the server for what the page does not hold', async () => {
    const boot = await withPage(JSON.stringify({ '/api/user': { status: 200, body: '{"id":1}' } }))
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('[]'))
    expect(await (await boot.fetchFirst('/api/codes?status=active', {})).json()).toEqual([])
    expect(await (await boot.fetchFirst('/api/user', {})).json()).toEqual({ id: 1 })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['no element', undefined],
    ['malformed JSON', '{"/api/user": '],
    ['not an object of answers', '[1, 2]'],
    ['answers of the wrong shape', JSON.stringify({ '/api/user': { status: '200', body: '{}' }, '/api/x': { status: 200, body: 7 }, '/api/y': null })],
  ])('ignores %s', async (_, text) => {
    const boot = await withPage(text)
    for (const path of ['/api/user', '/api/x', '/api/y', '0']) expect(boot.bootAnswer(path)).toBeUndefined()
  })
})

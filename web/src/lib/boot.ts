/**
 * The answers the server wrote into the app's page for the requests the
 * app makes before drawing it (internal/server/boot.go): the session, the
 * brand, the dashboard's first page of codes. A request for one of those
 * paths while the app starts takes its answer from the page instead of the
 * network, once; the rest are dropped once the first page is drawn
 * (endBoot), so nothing later reads an answer older than the page.
 */
interface BootAnswer {
  status: number
  body: string
}

/** The script element's id (boot.go's bootElementID). */
const elementId = 'squarely-boot'

let answers: Map<string, BootAnswer> | undefined

function pageAnswers(): Map<string, BootAnswer> {
  if (answers) return answers
  answers = new Map()
  const element = document.getElementById(elementId)
  try {
    const parsed: unknown = JSON.parse(element?.textContent || '{}')
    for (const [path, a] of Object.entries(parsed as Record<string, Partial<BootAnswer>>)) {
      if (typeof a?.status === 'number' && typeof a.body === 'string') answers.set(path, { status: a.status, body: a.body })
    }
  } catch {
    // A page without readable answers: the app asks the server, as without any.
  }
  element?.remove()
  return answers
}

/** The page's answer for GET path, once, as a response; undefined when the page has none (left). */
export function bootAnswer(path: string): Response | undefined {
  const a = pageAnswers().get(path)
  if (!a) return undefined
  answers?.delete(path)
  return new Response(a.body, { status: a.status, headers: { 'Content-Type': 'application/json' } })
}

/** Drops the answers not taken: once the first page is drawn, requests go to the server. */
export function endBoot() {
  answers = new Map()
  document.getElementById(elementId)?.remove()
}

/** GET path: the page's answer while the app starts, else the server's. */
export function fetchFirst(path: string, init: RequestInit): Promise<Response> {
  return Promise.resolve(bootAnswer(path) ?? fetch(path, init))
}

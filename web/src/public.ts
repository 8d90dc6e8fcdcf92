/**
 * The entry of the prerendered public pages (scripts/prerender.mjs puts it
 * in place of main.tsx). Such a page arrives whole: its text is there and
 * its links are links, so a visitor who reads it and follows a link loads
 * no framework at all (the phone budgets in BENCHMARKS.md). The app loads
 * when the page needs it, and then adopts the HTML in place:
 * - for a signed-in user, whose pages differ (the header's menu, and at /
 *   the dashboard), or on a white-label host, whose brand the app applies;
 * - when a visitor uses a control: a button, a form field, a form. The
 *   click or submit that asked is held, and done again once the app runs;
 * - on the landing page, on the first scroll towards the generator (or
 *   when a tall screen shows it), or at once for a visit with ?qr=.
 * Deliberately free of imports: everything here is in the first download.
 */
import type { Known } from './app/start'

const controls = 'button, input, select, textarea, label, summary, [role="button"], [role="tab"], [role="checkbox"], [role="switch"]'

let started: Promise<void> | undefined
let running = false

function start(hydrate: boolean, known: Known): Promise<void> {
  started ??= import('./app/start').then((m) => m.startApp({ hydrate, known })).then(() => {
    running = true
    replayTyping()
  })
  return started
}

/** The answer's JSON; null for a 401 (no session); undefined when the server did not answer (the app will ask again). */
async function read<T>(path: string): Promise<T | null | undefined> {
  try {
    const res = await fetch(path, { credentials: 'include' })
    if (res.status === 401) return null
    return res.ok ? ((await res.json()) as T) : undefined
  } catch {
    return undefined
  }
}

const visit = Promise.all([read<Known['user']>('/api/user'), read<Known['whiteLabel']>('/api/white-label/config')]).then(
  ([user, whiteLabel]): Known => ({ user, whiteLabel: whiteLabel ?? undefined }),
)

/** Starts the app for this visit: it hydrates the page when the visit is the prerender's (no user), else renders anew. */
function startForVisit(): Promise<void> {
  return visit.then((known) => start(known.user === null, known))
}

void visit.then((known) => {
  if (known.user || (known.whiteLabel && !known.whiteLabel.isDefault)) void startForVisit()
})

// A control used before the app runs: hold the event, start, and repeat it.
document.addEventListener(
  'click',
  (event) => {
    const control = !running && event.target instanceof Element ? event.target.closest(controls) : null
    if (!control) return
    event.preventDefault()
    event.stopImmediatePropagation()
    void startForVisit().then(() => control.isConnected && (control as HTMLElement).click())
  },
  true,
)
document.addEventListener(
  'submit',
  (event) => {
    if (running || !(event.target instanceof HTMLFormElement)) return
    const form = event.target
    event.preventDefault()
    void startForVisit().then(() => form.isConnected && form.requestSubmit())
  },
  true,
)
// Focus in a field starts the app without holding anything: hydration
// keeps the element and what was typed, and what was typed before the app
// ran is then given to it as an input event.
const typed = new Set<HTMLInputElement | HTMLTextAreaElement>()
document.addEventListener('focusin', (event) => {
  if (!running && event.target instanceof Element && event.target.matches('input, select, textarea')) void startForVisit()
})
document.addEventListener(
  'input',
  (event) => {
    if (!running && (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement)) typed.add(event.target)
  },
  true,
)
function replayTyping() {
  for (const field of typed) {
    if (!field.isConnected) continue
    const value = field.value
    // React notices a change against the value it last saw set through the
    // element: set '' that way, the typed text past it (the prototype's
    // setter), and announce the input.
    field.value = ''
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value)
    field.dispatchEvent(new Event('input', { bubbles: true }))
  }
  typed.clear()
}

const generator = document.getElementById('qr-generator')
if (generator) {
  if (new URLSearchParams(location.search).has('qr')) void startForVisit()
  else {
    // Below the first screen of a phone: the app (and then the generator's
    // code) loads on the visitor's first scroll, or at once on a screen tall
    // enough to show the generator.
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && near())
    const near = () => {
      observer.disconnect()
      removeEventListener('scroll', near)
      void startForVisit()
    }
    observer.observe(generator)
    addEventListener('scroll', near, { passive: true })
  }
}

/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

// Paths the Go server owns; in development the Vite server forwards them to it.
// Anchored patterns, so that /d/{code} does not swallow /dashboard.
const backend = 'http://localhost:8080'
const proxied = ['^/api/', '^/auth/google', '^/auth/oidc', '^/d/', '^/logo/', '^/pdf/', '^/images/']

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null }

/** Every module root imports, directly or through the modules it imports (dynamic imports not followed). */
function staticImports(graph: ModuleGraph, root: string): Set<string> {
  const seen = new Set<string>()
  const pending = [root]
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    pending.push(...(graph.getModuleInfo(id)?.importedIds ?? []))
  }
  return seen
}

/**
 * The app's first download (all that src/main.tsx imports) as one chunk
 * beside React's. The bundler would split it by which lazy pages share each
 * module, into about twenty files; the browser runs them all before the
 * first page anyway, and on a slow phone every file's fetch, compile and
 * link was a task of its own (BENCHMARKS.md, the dashboard's first card).
 * The bundler's preload helper, which src/public.ts shares, keeps a chunk
 * of its own, so a prerendered page still loads public.ts and the helper only.
 */
let firstDownload = new Set<string>()
const firstDownloadPlugin: Plugin = {
  name: 'squarely:first-download',
  buildEnd() {
    const main = fileURLToPath(new URL('./src/main.tsx', import.meta.url))
    // main.tsx itself stays in the entry file: it starts the app, which a prerendered page does its own way.
    firstDownload = staticImports(this, main)
    firstDownload.delete(main)
  },
}

/**
 * Every chunk starts with V8's compile hint (Chrome 136 and later): a
 * function is compiled with its file, while it streams in, off the main
 * thread, instead of when first called, on it. A chunk is fetched when its
 * page needs it and most of its functions then run; without the hint, V8
 * parsed and compiled each of them on the main thread at its first call
 * (BENCHMARKS.md, the dashboard's first card). The comment counts only as
 * a file's very first line, so it goes in after Vite has put its own
 * first line (the preload list) in. The file names' hashes are taken
 * before and do not cover it: the same line in every build.
 */
const compileHintsPlugin: Plugin = {
  name: 'squarely:compile-hints',
  apply: (_, { isSsrBuild }) => !isSsrBuild,
  generateBundle: {
    order: 'post',
    handler(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk') chunk.code = '//# allFunctionsCalledOnLoad\n' + chunk.code
      }
    },
  },
}

type Node = { type: string; [key: string]: unknown }

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

/** The nodes directly under node, in source order. */
function childNodes(node: Node): Node[] {
  return Object.values(node).flatMap((value) => (Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : []))
}

/** The specifier of the first import('…') under node, if any. */
function firstImport(node: Node): string | undefined {
  if (node.type === 'ImportExpression' && isNode(node.source) && typeof node.source.value === 'string') return node.source.value
  for (const child of childNodes(node)) {
    const found = firstImport(child)
    if (found) return found
  }
  return undefined
}

/**
 * Each route of the router whose page loads lazily, { path: '…',
 * ...page(() => import('…'), …) } in src/app/routes.tsx: its path and the
 * specifier of the module it loads (children's routes are their own).
 */
function lazyRoutes(node: Node, found = new Map<string, string>()): Map<string, string> {
  if (node.type === 'ObjectExpression') {
    const props = (node.properties as Node[]).filter((p) => !(p.type === 'Property' && isNode(p.key) && p.key.name === 'children'))
    const path = props.find((p) => p.type === 'Property' && isNode(p.key) && p.key.name === 'path' && isNode(p.value) && typeof p.value.value === 'string')
    const specifier = path && props.map(firstImport).find(Boolean)
    if (path && specifier) found.set((path.value as Node).value as string, specifier)
  }
  for (const child of childNodes(node)) lazyRoutes(child, found)
  return found
}

/**
 * For each lazily loaded page, the chunks its code needs beyond what the
 * app's entry already loads, as dist/route-preloads.json ({"/dashboard":
 * ["assets/dashboard-….js", …]}). The server lists them as module
 * preloads in that page's shell (internal/server/spa.go), so a phone
 * fetches them with the entry rather than once the entry has run and asked
 * for them: one round trip less before the page (BENCHMARKS.md, the
 * dashboard's first card).
 */
const routesModule = fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url))
const routeModules = new Map<string, string>() // route path → the id of the module its page loads
const routePreloadsPlugin: Plugin = {
  name: 'squarely:route-preloads',
  apply: (_, { isSsrBuild }) => !isSsrBuild,
  transform: {
    order: 'post',
    async handler(code, id) {
      if (id !== routesModule) return
      for (const [path, specifier] of lazyRoutes(this.parse(code) as unknown as Node)) {
        const resolved = await this.resolve(specifier, id)
        if (!resolved) this.error(`route ${path}: cannot resolve ${specifier}`)
        routeModules.set(path, resolved.id)
      }
    },
  },
  generateBundle(_, bundle) {
    const chunks = Object.values(bundle).filter((file) => file.type === 'chunk')
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
    const closure = (names: string[], seen = new Set<string>()) => {
      for (const name of names) {
        if (seen.has(name)) continue
        seen.add(name)
        closure(byName.get(name)?.imports ?? [], seen)
      }
      return seen
    }
    const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('index.html'))
    if (!entry || routeModules.size === 0) this.error('route preloads: no app entry or no lazy routes found')
    const loaded = closure([entry.fileName])
    const preloads: Record<string, string[]> = {}
    for (const [path, id] of routeModules) {
      const page = chunks.find((chunk) => chunk.moduleIds.includes(id))
      if (!page) this.error(`route ${path}: no chunk holds ${id}`)
      preloads[path] = [...closure([page.fileName])].filter((name) => !loaded.has(name))
    }
    this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(preloads, null, 2) + '\n' })
  },
}

export default defineConfig({
  plugins: [react(), tailwindcss(), firstDownloadPlugin, compileHintsPlugin, routePreloadsPlugin],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest tells scripts/prerender.mjs the built name of src/public.ts.
    manifest: true,
    rolldownOptions: {
      // index.html starts the app; src/public.ts starts the prerendered public pages.
      input: { index: 'index.html', public: 'src/public.ts' },
      output: {
        // React changes less often than our code: its own chunk stays cached across deploys.
        // The rest of the first download is one chunk (firstDownloadPlugin), the preload helper another.
        // Other libraries go with the pages that use them, so a page loads only its own code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 2 },
            { name: 'start', test: (id) => firstDownload.has(id), priority: 1 },
            { name: 'preload-helper', test: /^\0vite\/preload-helper/, priority: 3 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Generous: these tests check behaviour, not speed (see src/test/setup.ts).
    testTimeout: 30_000,
  },
})

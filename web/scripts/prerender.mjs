// Runs after `vite build` and `vite build --ssr src/app/prerender.tsx`
// (npm run build): writes each public page's HTML (dist/<path>/index.html,
// dist/index.html for /), dist/spa.html (the empty shell the server answers
// other paths with), sitemap.xml and robots.txt, then gzip and brotli
// copies of every text asset. HTML, XML and TXT files hold the base-URL
// token the Go server fills in at start, so it compresses those itself.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, extname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const web = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(web, 'dist')
const ssrDir = join(dist, '.ssr')

const ssr = await import(pathToFileURL(join(ssrDir, 'prerender.js')).href)
const template = await readFile(join(dist, 'index.html'), 'utf8')
await writeFile(join(dist, 'spa.html'), template)
// Public pages start with src/public.ts, which loads the app only when the
// page needs it: neither the app's entry nor its preloads go in their HTML.
const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'))
const appScript = /<script type="module" crossorigin src="[^"]+"><\/script>/
const preloads = /\s*<link rel="modulepreload" crossorigin href="[^"]+">/g
if (!appScript.test(template)) throw new Error('prerender: index.html has no module script')
const publicTemplate = template
  .replace(preloads, '')
  .replace(appScript, `<script type="module" crossorigin src="/${manifest['src/public.ts'].file}"></script>`)

const pages = ssr.publicPages()
for (const page of pages) {
  const markup = await ssr.renderPage(page.path)
  const file = page.path === '/' ? join(dist, 'index.html') : join(dist, page.path.slice(1), 'index.html')
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, ssr.pageDocument(publicTemplate, page, markup))
}
await writeFile(join(dist, 'sitemap.xml'), ssr.sitemap(pages))
await writeFile(join(dist, 'robots.txt'), ssr.robots())
await rm(ssrDir, { recursive: true, force: true })
await rm(join(dist, '.vite'), { recursive: true, force: true })
console.log(`prerendered ${pages.length} pages`)

// Precompressed copies, kept only when they save something.
const compressible = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.map', '.wasm', '.ico'])
let count = 0
async function compressTree(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      await compressTree(path)
      continue
    }
    if (!compressible.has(extname(entry.name))) continue
    const data = await readFile(path)
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
    const gz = gzipSync(data, { level: 9 })
    if (br.length < data.length) await writeFile(`${path}.br`, br)
    if (gz.length < data.length) await writeFile(`${path}.gz`, gz)
    count++
  }
}
await compressTree(dist)
console.log(`compressed ${count} assets (gzip, brotli)`)


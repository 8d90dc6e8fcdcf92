// Lists every link of a shortener with that service's own npm client, to
// check that internal/imports' fakes answer as the services do:
//   node shortener-clients.cjs kutt|dub|bitly BASE_URL API_KEY
// prints one JSON array of {shortCode, destination, title} and exits 0; 1
// when the client fails (its error printed), 3 when the client is not
// installed (cd e2e && npm ci). Run by internal/imports' tests.
const [source, base, key] = process.argv.slice(2)

function need(name) {
  try {
    return require(name)
  } catch {
    console.error(`${name} is not installed: run npm ci in e2e/`)
    process.exit(3)
  }
}

const readers = {
  // Kutt's client: GET {api}/links?skip&limit with X-API-KEY, a page of data and the total.
  async kutt() {
    const { Kutt } = need('kutt')
    const links = new Kutt().set('api', `${base}/api/v2`).set('key', key).links()
    const out = []
    for (;;) {
      const page = await links.list({ skip: out.length, limit: 50 })
      out.push(...page.data.map((l) => ({ shortCode: l.address, destination: l.target, title: l.description })))
      if (page.data.length === 0 || out.length >= page.total) return out
    }
  },
  // Dub's SDK validates every answer against its own schema of a link, and
  // pages on by itself until a page comes back short.
  async dub() {
    const { Dub } = need('dub')
    const dub = new Dub({ token: key, serverURL: base })
    const out = []
    for await (const page of await dub.links.list({ pageSize: 100 })) {
      out.push(...page.result.map((l) => ({ shortCode: l.key, destination: l.url, title: l.title })))
    }
    return out
  },
  // Bitly's client always speaks https to its apiUrl; its axios is pointed at
  // the plain-http fake at the edge, so the client's own requests and
  // parsing are what run. It sends the token as the whole Authorization
  // header, so the bearer scheme is part of the token given to it.
  async bitly() {
    const { BitlyClient } = need('bitly')
    const axios = require(require.resolve('axios', { paths: [require.resolve('bitly')] }))
    const api = 'api-ssl.bitly.com'
    ;(axios.default ?? axios).interceptors.request.use((config) => ({ ...config, url: config.url.replace(`https://${api}`, base) }))
    const bitly = new BitlyClient(`Bearer ${key}`, { apiUrl: api })
    const user = await bitly.bitlyRequest('user', {}, 'GET')
    const out = []
    let searchAfter = ''
    for (;;) {
      const query = searchAfter ? { size: 100, search_after: searchAfter } : { size: 100 }
      const page = await bitly.bitlyRequest(`groups/${user.default_group_guid}/bitlinks`, query, 'GET')
      out.push(...page.links.map((l) => ({ shortCode: new URL(l.link).pathname.slice(1), destination: l.long_url, title: l.title })))
      searchAfter = page.pagination.search_after
      if (!searchAfter) return out
    }
  },
}

const read = readers[source]
if (!read) {
  console.error(`no client for ${source}: kutt, dub or bitly`)
  process.exit(2)
}
read().then(
  (links) => console.log(JSON.stringify(links)),
  (err) => {
    // Dub's SDK names the fields its schema refused in the error's cause.
    console.error(err?.stack ?? JSON.stringify(err), err?.cause ? JSON.stringify(err.cause).slice(0, 2000) : '')
    process.exit(1)
  },
)

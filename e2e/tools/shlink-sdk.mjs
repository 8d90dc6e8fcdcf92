// Drives Squarely's Shlink-compatible API (/rest/v3) with Shlink's own
// client, @shlinkio/shlink-js-sdk, for internal/server's TestShlinkSDK.
// Usage: node shlink-sdk.mjs BASE_URL API_KEY PHASE; prints one JSON
// object of what each call returned (or the error's type and status).
// Exits 3 when the SDK is not installed (cd e2e && npm ci).
let ShlinkApiClient, NodeHttpClient, ErrorType;
try {
  ({ ShlinkApiClient } = await import('@shlinkio/shlink-js-sdk'));
  ({ NodeHttpClient } = await import('@shlinkio/shlink-js-sdk/node'));
  ({ ErrorType } = await import('@shlinkio/shlink-js-sdk/api-contract'));
} catch (e) {
  console.error('@shlinkio/shlink-js-sdk is not installed: run npm ci in e2e/', e);
  process.exit(3);
}

const [baseUrl, apiKey, phase] = process.argv.slice(2);
const client = new ShlinkApiClient(new NodeHttpClient(), { baseUrl, apiKey });
const out = { errorTypes: ErrorType };

// attempt records a call's result, or the problem it was refused with.
async function attempt(name, call) {
  try {
    out[name] = (await call()) ?? null;
  } catch (e) {
    out[name] = { error: { type: e?.type, status: e?.status, title: e?.title, detail: e?.detail, extra: e } };
  }
}

if (phase === 'one') {
  await attempt('health', () => client.health());
  await attempt('create', () =>
    client.createShortUrl({ longUrl: 'https://example.com/spring', customSlug: 'spring-sale', title: 'Spring sale', tags: ['promo', 'spring'] }),
  );
  await attempt('createRandom', () => client.createShortUrl({ longUrl: 'https://example.com/random' }));
  await attempt('createTaken', () => client.createShortUrl({ longUrl: 'https://example.com/again', customSlug: 'SPRING-SALE' }));
  await attempt('createReserved', () => client.createShortUrl({ longUrl: 'https://example.com/again', customSlug: 'dashboard' }));
  await attempt('createBadUrl', () => client.createShortUrl({ longUrl: 'javascript:alert(1)' }));
  await attempt('list', () => client.listShortUrls({ itemsPerPage: 10, page: 1 }));
  await attempt('listByTag', () => client.listShortUrls({ tags: ['promo'] }));
  await attempt('get', () => client.getShortUrl({ shortCode: 'spring-sale' }));
  await attempt('getMissing', () => client.getShortUrl({ shortCode: 'nope-nope' }));
  await attempt('edit', () =>
    client.updateShortUrl({ shortCode: 'spring-sale' }, { longUrl: 'https://example.com/spring-2', title: 'Spring sale 2', tags: ['promo'] }),
  );
  await attempt('tags', () => client.listTags());
} else if (phase === 'two') {
  await attempt('visits', () => client.getShortUrlVisits({ shortCode: 'spring-sale' }));
  await attempt('delete', () => client.deleteShortUrl({ shortCode: 'spring-sale' }));
  await attempt('getDeleted', () => client.getShortUrl({ shortCode: 'spring-sale' }));
} else if (phase === 'badkey') {
  await attempt('list', () => client.listShortUrls());
}
console.log(JSON.stringify(out));

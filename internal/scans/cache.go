// Package scans is the redirect hot path of dynamic codes: a cache of short
// codes so a scan is answered without the database, and a recorder that
// saves scans off the request path in batches.
package scans

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/idna"

	"github.com/squarely/squarely/internal/store"
)

// TTL bounds how stale a cached short code may be. The instance that edits,
// pauses, resumes or deletes a code drops its entry at once (Invalidate);
// on PostgreSQL the others hear of it within moments (store.ListenRedirects)
// and otherwise see the change when their entry expires, at most TTL later.
// Unknown codes are cached as misses for the same time.
const TTL = 5 * time.Second

// Stale-if-error: when the database fails a lookup, an expired entry keeps
// answering with what it last knew, for as long as the outage lasts; it
// asks the database again at most every staleRetry. A lookup waits at most
// loadTimeout, so an unreachable database slows a scan by that much, once
// per code per staleRetry.
const (
	staleRetry  = time.Second
	loadTimeout = 2 * time.Second
)

// ErrStale wraps the database's error when Lookup answers with an expired
// entry because the database failed.
var ErrStale = errors.New("scans: the database failed; answered from an expired entry")

// refreshAfter is the age from which a hit also queues its entry for a
// reload in the background, so a code scanned steadily never waits on the
// database. The reloads go in batches, a query per refreshBatch codes: one
// query per code was 2,000 queries a second at 10,000 hot codes, and most
// of the PostgreSQL redirect's p99 (BENCHMARKS.md). Entries still expire
// at TTL, so the bound on staleness is unchanged. At TTL/2 a code scanned
// at least every TTL/2 never waits; at 4/5 of TTL only a scan in the last
// second refreshed, and of codes scanned once a second (Poisson) 7% of
// scans waited on the database, 2% at TTL/2, for about 1.6 times the
// background reloads, which are batched.
const refreshAfter = TTL / 2

// refreshDelay gathers the entries that fall due into one batch.
const (
	refreshDelay = 100 * time.Millisecond
	refreshBatch = 1000
)

// cacheShards spreads the lock traffic of concurrent scans.
const cacheShards = 64

// maxShardEntries bounds memory against probes for random short codes: a
// full shard drops its expired entries, and all of them if none expired.
const maxShardEntries = 8192

// Target is a code's redirect as the cache holds it. Location and the
// header values are built once per load, so answering a cached scan
// allocates nothing for them.
type Target struct {
	ID        int64
	Paused    bool
	Protected bool     // a password guards it: the scan asks for it first
	Location  []string // the Location header value: the destination
	ClientID  int64    // the owner's white-label client, whose brand its pages wear
	// WorkspaceID is the owner: a workspace's custom domain serves its codes only.
	WorkspaceID int64
	// DomainID is the host the code is on: its custom domain, 0 for the
	// base URL's (pick).
	DomainID int64
	Router   *Router // smart routing (routing.go), nil for a plain code
	// PageID is the hosted page the code answers with (issue 35), 0 for a
	// redirect; PageVersion its version when the entry was loaded.
	PageID, PageVersion int64
}

// Host is the host a scan came by: the zero Host for the base URL's (or a
// white-label client's), else a verified custom domain and its workspace.
type Host struct{ DomainID, WorkspaceID int64 }

// pick is the code a scan of a short code on host answers, among the live
// codes with that short code, first then more (oldest first, one per host
// at most); nil for none. On a custom domain: the domain's own
// code, else its workspace's code on the base URL, else its workspace's
// oldest on another of its domains (as before short codes were per host:
// a workspace's domains serve its codes); another workspace's never. On
// the base URL: its own code, else the oldest, which was the only one
// with that short code when the base URL served every code (printed
// codes).
func pick(first *Target, more []Target, h Host) *Target {
	if h.DomainID == 0 {
		if first.DomainID == 0 {
			return first
		}
		for i := range more {
			if more[i].DomainID == 0 {
				return &more[i]
			}
		}
		return first
	}
	var best *Target
	for i := -1; i < len(more); i++ {
		c := first
		if i >= 0 {
			c = &more[i]
		}
		switch {
		case c.WorkspaceID != h.WorkspaceID:
		case c.DomainID == h.DomainID:
			return c
		case best == nil || c.DomainID == 0 && best.DomainID != 0:
			best = c
		}
	}
	return best
}

// entry is a short code's cached answer: the live codes with it, oldest
// first, none for an unknown code. The first is held in the entry itself
// (almost always the only one) and the others behind a pointer, so the
// entry stays within the 128 bytes a map holds in place: a larger one is
// kept out of line, and every hit chased a pointer (BenchmarkLookup was
// half again slower).
type entry struct {
	first      Target
	more       *[]Target // the others, nil almost always
	refreshAt  int64     // unix nanoseconds
	expires    int64     // unix nanoseconds
	found      bool      // first is a code
	refreshing bool      // queued for a background reload
}

// others are the entry's codes after the first.
func (e *entry) others() []Target {
	if e.more == nil {
		return nil
	}
	return *e.more
}

// pick is the entry's code a scan on host answers (pick), nil for none.
// One code (almost always) needs no search: it answers on any host but
// another workspace's domain, as pick would.
func (e *entry) pick(h Host) *Target {
	if e.more != nil {
		return pick(&e.first, *e.more, h)
	}
	if e.found && (h.DomainID == 0 || e.first.WorkspaceID == h.WorkspaceID) {
		return &e.first
	}
	return nil
}

// answer is Lookup's answer of a picked code.
func answer(t *Target) (Target, bool) {
	if t == nil {
		return Target{}, false
	}
	return *t, true
}

// due is an entry queued for a background reload.
type due struct {
	code string
	sh   *shard
	gen  uint64 // the shard's generation when queued
}

type shard struct {
	mu  sync.RWMutex
	m   map[string]entry
	gen uint64 // bumped by Invalidate, so a load that raced an edit is not kept
}

// Loader reads short codes' redirects, every host's code of each, oldest
// first: store.Store does. Redirects answers many short codes at once.
type Loader interface {
	RedirectsByShortCode(ctx context.Context, shortCode string) ([]store.Redirect, error)
	Redirects(ctx context.Context, shortCodes []string) (map[string][]store.Redirect, error)
}

// Cache maps short codes to their redirects, every host's code of each,
// so that an edit of any of them invalidates the one entry of its short
// code. It is safe for concurrent use.
type Cache struct {
	load   Loader
	now    func() time.Time
	seed   maphash.Seed
	shards [cacheShards]shard

	dueMu sync.Mutex
	due   []due

	stale atomic.Int64 // lookups answered from an expired entry

	loadMu  sync.Mutex
	loading int        // miss loads under way, at most maxLoads
	next    *missBatch // misses waiting for one of them to finish
}

// Misses load in batches. A miss is loaded at once when fewer than
// maxLoads loads are under way; otherwise it joins the batch that starts
// when one of them ends, one query for all its codes. A cold cache (a
// restart, a deploy) under thousands of scans a second made each miss wait
// its turn for a pooled connection, one query per code: on PostgreSQL a
// scan in a hundred waited a quarter of a second (BENCHMARKS.md).
const maxLoads = 4

// missBatch is a load of the codes that missed meanwhile.
type missBatch struct {
	codes  []string
	done   chan struct{} // closed when found and failed are set
	found  map[string][]store.Redirect
	failed map[string]error // the codes whose load failed
}

// NewCache returns an empty cache that loads from l. now is the clock (nil
// = time.Now).
func NewCache(l Loader, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	c := &Cache{load: l, now: now, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].m = map[string]entry{}
	}
	return c
}

func (c *Cache) shard(code string) *shard {
	return &c.shards[maphash.String(c.seed, code)%cacheShards]
}

// Lookup returns the redirect of a live short code a scan on host answers
// (pick); ok is false for an unknown or deleted one, or none host serves.
// Only a miss or an expired entry reads the store on the request; a hit
// late in its TTL queues a reload (refreshAfter). When that read fails and
// the code was cached, Lookup answers what it last knew with an error
// wrapping ErrStale.
func (c *Cache) Lookup(ctx context.Context, code string, host Host) (t Target, ok bool, err error) {
	sh := c.shard(code)
	now := c.now().UnixNano()
	sh.mu.RLock()
	e, hit := sh.m[code]
	gen := sh.gen
	sh.mu.RUnlock()
	if hit && now < e.expires {
		if now >= e.refreshAt && !e.refreshing {
			c.queueRefresh(sh, code)
		}
		t, ok = answer(e.pick(host))
		return t, ok, nil
	}

	rs, err := c.fetch(ctx, code)
	if err != nil {
		if !hit || ctx.Err() != nil {
			return Target{}, false, err
		}
		e.expires = c.now().Add(staleRetry).UnixNano()
		e.refreshAt, e.refreshing = e.expires, false
		c.keep(sh, code, gen, e)
		c.stale.Add(1)
		t, ok = answer(e.pick(host))
		return t, ok, fmt.Errorf("%w: %w", ErrStale, err)
	}
	e = c.entry(sh, code, rs)
	c.keep(sh, code, gen, e)
	t, ok = answer(e.pick(host))
	return t, ok, nil
}

// fetch loads a code that missed, in a batch with the others that missed
// meanwhile (see maxLoads).
func (c *Cache) fetch(ctx context.Context, code string) ([]store.Redirect, error) {
	c.loadMu.Lock()
	b := c.next
	if b == nil {
		b = &missBatch{done: make(chan struct{})}
		c.next = b
	}
	b.codes = append(b.codes, code)
	start := c.loading < maxLoads
	if start {
		c.loading++
		c.next = nil
	}
	c.loadMu.Unlock()
	if start {
		// Not on this request's context: others wait on the batch too.
		go c.loadBatches(b)
	}
	select {
	case <-b.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := b.failed[code]; err != nil {
		return nil, err
	}
	return b.found[code], nil
}

// loadBatches loads b, then each batch that gathered meanwhile, until
// none is waiting.
func (c *Cache) loadBatches(b *missBatch) {
	for b != nil {
		ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
		if len(b.codes) == 1 {
			// One code: the store's query for one, by its index.
			b.found, b.failed = c.loadEach(ctx, b.codes)
		} else {
			b.found, b.failed = c.loadBatch(ctx, b.codes)
		}
		cancel()
		close(b.done)
		c.loadMu.Lock()
		b, c.next = c.next, nil
		if b == nil {
			c.loading--
		}
		c.loadMu.Unlock()
	}
}

// loadBatch reads the redirects of codes in one query. When that fails,
// each code of a batch is read on its own (while ctx lasts), so a code that
// fails the query fails no other code loaded with it. failed holds each
// code whose load failed, with its error.
func (c *Cache) loadBatch(ctx context.Context, codes []string) (found map[string][]store.Redirect, failed map[string]error) {
	found, err := c.load.Redirects(ctx, codes)
	if err == nil {
		return found, nil
	}
	if len(codes) > 1 && ctx.Err() == nil {
		return c.loadEach(ctx, codes)
	}
	failed = make(map[string]error, len(codes))
	for _, code := range codes {
		failed[code] = err
	}
	return nil, failed
}

// loadEach reads the redirects of codes one by one, by the short code's
// index; failed is as for loadBatch.
func (c *Cache) loadEach(ctx context.Context, codes []string) (found map[string][]store.Redirect, failed map[string]error) {
	found = make(map[string][]store.Redirect, len(codes))
	for _, code := range codes {
		rs, err := c.load.RedirectsByShortCode(ctx, code)
		switch {
		case err == nil:
			found[code] = rs
		case errors.Is(err, store.ErrNotFound):
		default:
			if failed == nil {
				failed = map[string]error{}
			}
			failed[code] = err
		}
	}
	return found, failed
}

// entry is a freshly loaded entry of code in sh, rs its codes (none: an
// unknown code). A code's router is the one cached for it when its routing
// is unchanged: a hot routed code is reloaded every few seconds, and
// parsing its routing each time cost more than routing its scans
// (BENCHMARKS.md).
func (c *Cache) entry(sh *shard, code string, rs []store.Redirect) entry {
	now := c.now()
	e := entry{refreshAt: now.Add(refreshAfter).UnixNano(), expires: now.Add(TTL).UnixNano()}
	if len(rs) == 0 {
		return e
	}
	e.found = true
	if len(rs) > 1 {
		more := make([]Target, len(rs)-1)
		e.more = &more
	}
	var old *entry
	for i, r := range rs {
		t := &e.first
		if i > 0 {
			t = &(*e.more)[i-1]
		}
		*t = Target{ID: r.ID, Paused: r.Paused, Protected: r.Protected, Location: []string{location(r.Destination)}, ClientID: r.ClientID,
			WorkspaceID: r.WorkspaceID, DomainID: r.DomainID, PageID: r.PageID, PageVersion: r.PageVersion}
		if r.Routing == "" && r.AppData == "" {
			continue
		}
		key := routingKey(r)
		if old == nil {
			sh.mu.RLock()
			o := sh.m[code]
			sh.mu.RUnlock()
			old = &o
		}
		if t.Router = old.router(r.ID); t.Router == nil || t.Router.key != key {
			if t.Router = NewRouter(r.Routing, r.AppData); t.Router != nil {
				t.Router.key = key
			}
		}
	}
	return e
}

// router is the compiled router of code id in e, nil for none.
func (e *entry) router(id int64) *Router {
	if e.found && e.first.ID == id {
		return e.first.Router
	}
	for _, o := range e.others() {
		if o.ID == id {
			return o.Router
		}
	}
	return nil
}

// routingKey is what a code's router is compiled from.
func routingKey(r store.Redirect) string { return r.Routing + "\x00" + r.AppData }

// keep stores a loaded entry unless the code was invalidated since gen was
// read: what was loaded may predate the change.
func (c *Cache) keep(sh *shard, code string, gen uint64, e entry) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.gen != gen {
		return
	}
	if len(sh.m) >= maxShardEntries {
		now := c.now().UnixNano()
		for k, old := range sh.m {
			if now >= old.expires {
				delete(sh.m, k)
			}
		}
		if len(sh.m) >= maxShardEntries {
			clear(sh.m)
		}
	}
	sh.m[code] = e
}

// queueRefresh queues a code's entry for a background reload, once.
func (c *Cache) queueRefresh(sh *shard, code string) {
	sh.mu.Lock()
	e, ok := sh.m[code]
	if !ok || e.refreshing {
		sh.mu.Unlock()
		return
	}
	e.refreshing = true
	sh.m[code] = e
	d := due{code: code, sh: sh, gen: sh.gen}
	sh.mu.Unlock()
	c.dueMu.Lock()
	c.due = append(c.due, d)
	first := len(c.due) == 1
	c.dueMu.Unlock()
	if first {
		go c.refresh()
	}
}

// refresh reloads the queued entries in batches. An entry whose reload
// failed is left to expire; the request that then loads it reports the
// error.
func (c *Cache) refresh() {
	time.Sleep(refreshDelay)
	c.dueMu.Lock()
	queued := c.due
	c.due = nil
	c.dueMu.Unlock()
	for len(queued) > 0 {
		batch := queued[:min(len(queued), refreshBatch)]
		queued = queued[len(batch):]
		codes := make([]string, len(batch))
		for i, d := range batch {
			codes[i] = d.code
		}
		ctx, cancel := context.WithTimeout(context.Background(), TTL)
		live, failed := c.loadBatch(ctx, codes)
		cancel()
		for _, d := range batch {
			if failed[d.code] != nil {
				continue
			}
			c.keep(d.sh, d.code, d.gen, c.entry(d.sh, d.code, live[d.code]))
		}
	}
}

// Prime caches redirects loaded beforehand (store.RecentRedirects: every
// host's code of each short code), as if each had just missed: for an
// instance that starts under load.
func (c *Cache) Prime(redirects map[string][]store.Redirect) {
	for code, rs := range redirects {
		sh := c.shard(code)
		sh.mu.RLock()
		gen := sh.gen
		sh.mu.RUnlock()
		c.keep(sh, code, gen, c.entry(sh, code, rs))
	}
}

// Stale returns how many lookups were answered from an expired entry.
func (c *Cache) Stale() int64 { return c.stale.Load() }

// InvalidateAll drops every entry: for when changes may have been missed.
func (c *Cache) InvalidateAll() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		clear(sh.m)
		sh.gen++
		sh.mu.Unlock()
	}
}

// Invalidate drops a short code's entry, so the next scan reads the store:
// call it after changing the code.
func (c *Cache) Invalidate(code string) {
	sh := c.shard(code)
	sh.mu.Lock()
	delete(sh.m, code)
	sh.gen++
	sh.mu.Unlock()
}

// location is a destination as a Location header carries it: ASCII, with
// an internationalised host name in Punycode (xn--…) and any other
// non-ASCII byte percent-encoded, which is how browsers would send it.
func location(dest string) string {
	if isASCII(dest) {
		return dest
	}
	if u, err := url.Parse(dest); err == nil && !isASCII(u.Host) {
		host, port := u.Host, ""
		if h, p, err := net.SplitHostPort(u.Host); err == nil {
			host, port = h, p
		}
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			u.Host = ascii
			if port != "" {
				u.Host = net.JoinHostPort(ascii, port)
			}
			dest = u.String()
		}
	}
	var b strings.Builder
	for i := 0; i < len(dest); i++ {
		if c := dest[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

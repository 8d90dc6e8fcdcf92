// Package scans is the redirect hot path of dynamic codes: a cache of short
// codes so a scan is answered without the database, and a recorder that
// saves scans off the request path in batches.
package scans

import (
	"context"
	"errors"
	"hash/maphash"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// TTL bounds how stale a cached short code may be. The instance that edits,
// pauses, resumes or deletes a code drops its entry at once (Invalidate);
// the other instances of a fleet see the change when their entry expires,
// at most TTL later. Unknown codes are cached as misses for the same time.
const TTL = 5 * time.Second

// cacheShards spreads the lock traffic of concurrent scans.
const cacheShards = 64

// maxShardEntries bounds memory against probes for random short codes: a
// full shard drops its expired entries, and all of them if none expired.
const maxShardEntries = 8192

// Target is a short code's redirect as the cache holds it. Location and
// the header values are built once per load, so answering a cached scan
// allocates nothing for them.
type Target struct {
	ID       int64
	Paused   bool
	Location []string // the Location header value: the destination
}

type entry struct {
	target  Target
	found   bool
	expires int64 // unix nanoseconds
}

type shard struct {
	mu  sync.RWMutex
	m   map[string]entry
	gen uint64 // bumped by Invalidate, so a load that raced an edit is not kept
}

// Loader reads a short code's redirect: store.Store does.
type Loader interface {
	RedirectByShortCode(ctx context.Context, shortCode string) (store.Redirect, error)
}

// Cache maps short codes to their redirects. It is safe for concurrent use.
type Cache struct {
	load   Loader
	now    func() time.Time
	seed   maphash.Seed
	shards [cacheShards]shard
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

// Lookup returns the redirect of a live short code; ok is false for an
// unknown or deleted one. Only a miss or an expired entry reads the store.
func (c *Cache) Lookup(ctx context.Context, code string) (t Target, ok bool, err error) {
	sh := c.shard(code)
	now := c.now().UnixNano()
	sh.mu.RLock()
	e, hit := sh.m[code]
	gen := sh.gen
	sh.mu.RUnlock()
	if hit && now < e.expires {
		return e.target, e.found, nil
	}

	r, err := c.load.RedirectByShortCode(ctx, code)
	switch {
	case errors.Is(err, store.ErrNotFound):
		e = entry{}
	case err != nil:
		return Target{}, false, err
	default:
		e = entry{found: true, target: Target{ID: r.ID, Paused: r.Paused, Location: []string{r.Destination}}}
	}
	e.expires = c.now().Add(TTL).UnixNano()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.gen != gen {
		// Invalidated while loading: what was read may predate the change.
		return e.target, e.found, nil
	}
	if len(sh.m) >= maxShardEntries {
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
	return e.target, e.found, nil
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

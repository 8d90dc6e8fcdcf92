package gs1

import (
	"context"
	"sync"
	"time"
)

// Loader reads the entries of a GTIN (14 digits) in every workspace that
// has one, oldest first.
type Loader interface {
	GS1Entries(ctx context.Context, gtin string) ([]*Entry, error)
}

// TTL bounds how long a cached GTIN is served without a change being
// announced: should an announcement be lost, the entry is read again
// after it.
const TTL = 5 * time.Minute

// maxCached bounds the GTINs held (found or not); past it the cache
// starts again empty, so scans of made-up GTINs cannot grow it forever.
const maxCached = 200_000

// Cache holds the entries of scanned GTINs, so that a scan reads no
// database: the store announces every change to a product or lot
// (store.OnRedirectsChanged, store.GS1Key), on every instance, and the
// GTIN is dropped.
type Cache struct {
	load Loader
	now  func() time.Time

	mu      sync.Mutex
	gen     uint64
	entries map[string]cached
}

type cached struct {
	list    []*Entry
	expires time.Time
}

// NewCache returns an empty cache reading through l; now nil is time.Now.
func NewCache(l Loader, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	return &Cache{load: l, now: now, entries: map[string]cached{}}
}

// Lookup returns the entry of gtin the request's host answers: the
// workspace's on its own domain (workspaceID), the oldest on the base URL
// (0). nil when there is none.
func (c *Cache) Lookup(ctx context.Context, gtin string, workspaceID int64) (*Entry, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[gtin]
	gen := c.gen
	c.mu.Unlock()
	if !ok || now.After(e.expires) {
		list, err := c.load.GS1Entries(ctx, gtin)
		if err != nil {
			return nil, err
		}
		e = cached{list: list, expires: now.Add(TTL)}
		c.mu.Lock()
		if c.gen == gen { // nothing was invalidated while it loaded
			if len(c.entries) >= maxCached {
				c.entries = map[string]cached{}
			}
			c.entries[gtin] = e
		}
		c.mu.Unlock()
	}
	for _, en := range e.list {
		if workspaceID == 0 || en.WorkspaceID == workspaceID {
			return en, nil
		}
	}
	return nil, nil
}

// Invalidate drops gtin.
func (c *Cache) Invalidate(gtin string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.entries, gtin)
}

// InvalidateAll drops every GTIN (announcements may have been missed).
func (c *Cache) InvalidateAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.entries = map[string]cached{}
}

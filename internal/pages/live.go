package pages

import (
	"sync"
	"time"
)

// Live knows, for the pages an instance served lately, which version is
// current, by slug and by id: /p/{slug} and a routing rule's page are
// answered from it without the database. An edit announces the page's
// slug (store.PageKey): the instance that saves it forgets the entry at
// once, the others when they hear the announcement (store.ListenRedirects),
// as a code's redirect is forgotten. Entries also expire after ttl, for an
// announcement lost on the way. It is safe for concurrent use.
type Live struct {
	ttl time.Duration
	now func() time.Time

	mu     sync.Mutex
	gen    uint64 // bumped by every Forget, so a load that raced an edit is not kept
	bySlug map[string]liveEntry
	byID   map[int64]liveEntry
}

// Current is a page's current version and address.
type Current struct {
	ID, Version int64
	Slug        string
}

type liveEntry struct {
	Current
	expires time.Time
}

// maxLive bounds the entries: past it the cache is emptied.
const maxLive = 10000

// NewLive returns an empty cache whose entries expire after ttl; now is
// its clock (nil: time.Now).
func NewLive(ttl time.Duration, now func() time.Time) *Live {
	if now == nil {
		now = time.Now
	}
	return &Live{ttl: ttl, now: now, bySlug: map[string]liveEntry{}, byID: map[int64]liveEntry{}}
}

// Gen is the cache's generation, read before loading a page to Keep.
func (l *Live) Gen() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// BySlug is the current version of the page at slug, if known.
func (l *Live) BySlug(slug string) (Current, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.bySlug[slug]
	return e.Current, ok && l.now().Before(e.expires)
}

// ByID is the current version of page id, if known.
func (l *Live) ByID(id int64) (Current, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.byID[id]
	return e.Current, ok && l.now().Before(e.expires)
}

// Keep records c, loaded when the cache's generation was gen; a load that
// began before a Forget is not kept (it may hold the version before the
// edit).
func (l *Live) Keep(c Current, gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen != l.gen {
		return
	}
	if len(l.byID) >= maxLive {
		clear(l.byID)
		clear(l.bySlug)
	}
	e := liveEntry{Current: c, expires: l.now().Add(l.ttl)}
	l.bySlug[c.Slug] = e
	l.byID[c.ID] = e
}

// Forget drops the page at slug (an announced edit, rename or deletion).
func (l *Live) Forget(slug string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen++
	if e, ok := l.bySlug[slug]; ok {
		delete(l.bySlug, slug)
		if l.byID[e.ID].Slug == slug {
			delete(l.byID, e.ID)
		}
	}
}

// ForgetAll drops every page: announcements may have been missed.
func (l *Live) ForgetAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen++
	clear(l.bySlug)
	clear(l.byID)
}

package scans

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// fakeLoader serves redirects from a map and counts its loads.
type fakeLoader struct {
	mu    sync.Mutex
	codes map[string]store.Redirect
	loads int
	err   error
}

func (f *fakeLoader) RedirectByShortCode(_ context.Context, code string) (store.Redirect, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loads++
	if f.err != nil {
		return store.Redirect{}, f.err
	}
	r, ok := f.codes[code]
	if !ok {
		return store.Redirect{}, store.ErrNotFound
	}
	return r, nil
}

func (f *fakeLoader) set(code string, r store.Redirect) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.codes[code] = r
}

func (f *fakeLoader) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loads
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestCacheHitsMissesAndTTL(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)

	for range 3 {
		tg, ok, err := c.Lookup(ctx, "abc")
		if err != nil || !ok || tg.ID != 1 || tg.Location[0] != "https://a.example" {
			t.Fatalf("Lookup = %+v, %v, %v", tg, ok, err)
		}
	}
	if l.count() != 1 {
		t.Errorf("3 lookups loaded %d times, want 1", l.count())
	}
	// Unknown codes are cached as misses too.
	for range 2 {
		if _, ok, err := c.Lookup(ctx, "nope"); ok || err != nil {
			t.Fatalf("unknown code: ok %v err %v", ok, err)
		}
	}
	if l.count() != 2 {
		t.Errorf("loads = %d, want 2 (one miss cached)", l.count())
	}

	// Another instance changes the code: seen once the entry expires.
	l.set("abc", store.Redirect{ID: 1, Destination: "https://b.example", Paused: true})
	clk.advance(TTL - time.Millisecond)
	if tg, _, _ := c.Lookup(ctx, "abc"); tg.Location[0] != "https://a.example" {
		t.Errorf("before TTL: %v", tg.Location)
	}
	clk.advance(time.Millisecond)
	if tg, _, _ := c.Lookup(ctx, "abc"); tg.Location[0] != "https://b.example" || !tg.Paused {
		t.Errorf("after TTL: %+v", tg)
	}
}

func TestCacheInvalidate(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}}
	c := NewCache(l, nil)
	c.Lookup(ctx, "abc")
	l.set("abc", store.Redirect{ID: 1, Destination: "https://new.example"})
	c.Invalidate("abc")
	if tg, _, _ := c.Lookup(ctx, "abc"); tg.Location[0] != "https://new.example" {
		t.Errorf("after Invalidate: %v", tg.Location)
	}
	// A newly created code replaces a cached miss at once on this instance.
	c.Lookup(ctx, "fresh")
	l.set("fresh", store.Redirect{ID: 2, Destination: "https://f.example"})
	c.Invalidate("fresh")
	if _, ok, _ := c.Lookup(ctx, "fresh"); !ok {
		t.Error("a created code stayed a cached miss")
	}
}

func TestCacheLoadErrorIsNotCached(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}, err: errors.New("db down")}
	c := NewCache(l, nil)
	if _, _, err := c.Lookup(ctx, "abc"); err == nil {
		t.Fatal("load error not returned")
	}
	l.mu.Lock()
	l.err = nil
	l.mu.Unlock()
	if _, ok, err := c.Lookup(ctx, "abc"); !ok || err != nil {
		t.Errorf("after recovery: ok %v err %v", ok, err)
	}
}

func TestCacheBoundsShards(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{}}
	c := NewCache(l, nil)
	for i := range cacheShards * maxShardEntries * 5 / 4 {
		c.Lookup(ctx, string(rune('a'+i%26))+time.Duration(i).String())
	}
	for i := range c.shards {
		if n := len(c.shards[i].m); n > maxShardEntries {
			t.Fatalf("shard %d holds %d entries, bound %d", i, n, maxShardEntries)
		}
	}
}

func TestCacheHitDoesNotAllocate(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}}
	c := NewCache(l, nil)
	c.Lookup(ctx, "abc")
	if n := testing.AllocsPerRun(1000, func() { c.Lookup(ctx, "abc") }); n != 0 {
		t.Errorf("a cache hit allocates %v times", n)
	}
}

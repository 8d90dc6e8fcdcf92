package scans

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/squarely/squarely/internal/store"
)

// fakeLoader serves redirects from a map and counts its loads: a short
// code's in hosts when it has several (each host's), else its one in codes.
type fakeLoader struct {
	mu      sync.Mutex
	codes   map[string]store.Redirect
	hosts   map[string][]store.Redirect
	loads   int
	err     error
	batches [][]string    // the codes of each Redirects call
	hold    chan struct{} // when set, Redirects waits for it to close
	holdOne chan struct{} // when set, RedirectsByShortCode waits for it to close
	refuse  string        // a code that fails any query it is in, as PostgreSQL fails one with a NUL
}

// get is what the loader holds of code, under f.mu.
func (f *fakeLoader) get(code string) []store.Redirect {
	if list, ok := f.hosts[code]; ok {
		return list
	}
	if r, ok := f.codes[code]; ok {
		return []store.Redirect{r}
	}
	return nil
}

func (f *fakeLoader) Redirects(_ context.Context, codes []string) (map[string][]store.Redirect, error) {
	f.mu.Lock()
	hold := f.hold
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches = append(f.batches, codes)
	if f.err != nil {
		return nil, f.err
	}
	if f.refuse != "" && slices.Contains(codes, f.refuse) {
		return nil, errRefused
	}
	live := map[string][]store.Redirect{}
	for _, c := range codes {
		if list := f.get(c); list != nil {
			live[c] = list
		}
	}
	return live, nil
}

var errRefused = errors.New("invalid byte sequence for encoding UTF8")

func (f *fakeLoader) batchCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.batches)
}

func (f *fakeLoader) RedirectsByShortCode(_ context.Context, code string) ([]store.Redirect, error) {
	f.mu.Lock()
	hold := f.holdOne
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loads++
	if f.err != nil {
		return nil, f.err
	}
	if f.refuse != "" && code == f.refuse {
		return nil, errRefused
	}
	list := f.get(code)
	if list == nil {
		return nil, store.ErrNotFound
	}
	return list, nil
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
		tg, ok, err := c.Lookup(ctx, "abc", Host{})
		if err != nil || !ok || tg.ID != 1 || tg.Location[0] != "https://a.example" {
			t.Fatalf("Lookup = %+v, %v, %v", tg, ok, err)
		}
	}
	if l.count() != 1 {
		t.Errorf("3 lookups loaded %d times, want 1", l.count())
	}
	// Unknown codes are cached as misses too.
	for range 2 {
		if _, ok, err := c.Lookup(ctx, "nope", Host{}); ok || err != nil {
			t.Fatalf("unknown code: ok %v err %v", ok, err)
		}
	}
	if l.count() != 2 {
		t.Errorf("loads = %d, want 2 (one miss cached)", l.count())
	}

	// Another instance changes the code: seen once the entry expires.
	l.set("abc", store.Redirect{ID: 1, Destination: "https://b.example", Paused: true})
	clk.advance(TTL - time.Millisecond)
	if tg, _, _ := c.Lookup(ctx, "abc", Host{}); tg.Location[0] != "https://a.example" {
		t.Errorf("before TTL: %v", tg.Location)
	}
	clk.advance(time.Millisecond)
	if tg, _, _ := c.Lookup(ctx, "abc", Host{}); tg.Location[0] != "https://b.example" || !tg.Paused {
		t.Errorf("after TTL: %+v", tg)
	}
}

func TestCacheInvalidate(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}}
	c := NewCache(l, nil)
	c.Lookup(ctx, "abc", Host{})
	l.set("abc", store.Redirect{ID: 1, Destination: "https://new.example"})
	c.Invalidate("abc")
	if tg, _, _ := c.Lookup(ctx, "abc", Host{}); tg.Location[0] != "https://new.example" {
		t.Errorf("after Invalidate: %v", tg.Location)
	}
	// A newly created code replaces a cached miss at once on this instance.
	c.Lookup(ctx, "fresh", Host{})
	l.set("fresh", store.Redirect{ID: 2, Destination: "https://f.example"})
	c.Invalidate("fresh")
	if _, ok, _ := c.Lookup(ctx, "fresh", Host{}); !ok {
		t.Error("a created code stayed a cached miss")
	}
}

func TestCacheLoadErrorIsNotCached(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}, err: errors.New("db down")}
	c := NewCache(l, nil)
	if _, _, err := c.Lookup(ctx, "abc", Host{}); err == nil {
		t.Fatal("load error not returned")
	}
	l.mu.Lock()
	l.err = nil
	l.mu.Unlock()
	if _, ok, err := c.Lookup(ctx, "abc", Host{}); !ok || err != nil {
		t.Errorf("after recovery: ok %v err %v", ok, err)
	}
}

func TestCacheBoundsShards(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{}}
	c := NewCache(l, nil)
	for i := range cacheShards * maxShardEntries * 5 / 4 {
		c.Lookup(ctx, string(rune('a'+i%26))+time.Duration(i).String(), Host{})
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
	c.Lookup(ctx, "abc", Host{})
	if n := testing.AllocsPerRun(1000, func() { c.Lookup(ctx, "abc", Host{}) }); n != 0 {
		t.Errorf("a cache hit allocates %v times", n)
	}
}

func TestCacheRefreshesHotEntriesInBatches(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{
		"abc": {ID: 1, Destination: "https://a.example"},
		"def": {ID: 2, Destination: "https://d.example"},
	}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)
	c.Lookup(ctx, "abc", Host{})
	c.Lookup(ctx, "def", Host{})
	l.set("abc", store.Redirect{ID: 1, Destination: "https://b.example"})
	l.mu.Lock()
	delete(l.codes, "def")
	l.mu.Unlock()

	// Before refreshAfter a hit queues nothing.
	clk.advance(refreshAfter - time.Millisecond)
	c.Lookup(ctx, "abc", Host{})
	time.Sleep(2 * refreshDelay)
	if n := l.batchCount(); n != 0 {
		t.Fatalf("%d reloads before refreshAfter", n)
	}
	// Late in the TTL a hit still answers what it holds and queues a reload;
	// both codes go in one batch, once however often they are hit.
	clk.advance(time.Millisecond)
	for range 3 {
		for _, code := range []string{"abc", "def"} {
			if tg, ok, _ := c.Lookup(ctx, code, Host{}); !ok || tg.ID == 0 {
				t.Fatalf("%s late in its TTL: %+v, %v", code, tg, ok)
			}
		}
	}
	waitFor(t, "the reload", func() bool { return l.batchCount() == 1 })
	l.mu.Lock()
	b := l.batches[0]
	l.mu.Unlock()
	if len(b) != 2 {
		t.Errorf("batch %v, want both codes", b)
	}
	// Past the first load's TTL the reloaded entries answer without a load.
	clk.advance(TTL - refreshAfter + time.Second)
	if tg, ok, _ := c.Lookup(ctx, "abc", Host{}); !ok || tg.Location[0] != "https://b.example" {
		t.Errorf("abc after the reload: %+v", tg)
	}
	if _, ok, _ := c.Lookup(ctx, "def", Host{}); ok {
		t.Error("a code deleted before the reload is still served")
	}
	if l.count() != 2 {
		t.Errorf("%d loads on requests, want the first 2 only", l.count())
	}
}

// A code scanned every 3 seconds, less often than once in the last second
// before its entry expires, is refreshed in the background: only its first
// scan waits on the database.
func TestCacheRefreshesSteadyCode(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)
	c.Lookup(ctx, "abc", Host{})
	for i := range 5 {
		clk.advance(3 * time.Second)
		if tg, ok, err := c.Lookup(ctx, "abc", Host{}); !ok || err != nil || tg.ID != 1 {
			t.Fatalf("scan %d: %+v, %v, %v", i, tg, ok, err)
		}
		waitFor(t, "the reload", func() bool { return l.batchCount() == i+1 })
	}
	if n := l.count(); n != 1 {
		t.Errorf("%d scans waited on the database, want the first only", n)
	}
}

func TestCacheRefreshKeepsNothingInvalidatedOrFailed(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example"}},
		hold: make(chan struct{})}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)
	c.Lookup(ctx, "abc", Host{})
	clk.advance(refreshAfter)
	c.Lookup(ctx, "abc", Host{}) // queues a reload, which waits for hold
	// The code changes here while the reload is under way.
	l.set("abc", store.Redirect{ID: 1, Destination: "https://new.example", Paused: true})
	c.Invalidate("abc")
	if tg, _, _ := c.Lookup(ctx, "abc", Host{}); !tg.Paused {
		t.Fatalf("after Invalidate: %+v", tg)
	}
	l.mu.Lock()
	l.codes["abc"] = store.Redirect{ID: 1, Destination: "https://stale.example"}
	l.mu.Unlock()
	close(l.hold)
	waitFor(t, "the reload", func() bool { return l.batchCount() == 1 })
	time.Sleep(10 * time.Millisecond) // let it store what it would
	if tg, _, _ := c.Lookup(ctx, "abc", Host{}); !tg.Paused {
		t.Errorf("a reload begun before Invalidate replaced the entry: %+v", tg)
	}

	// A failed reload leaves the entry to expire; the next request loads it.
	l.mu.Lock()
	l.hold, l.err = nil, errors.New("database unavailable")
	l.mu.Unlock()
	loads := l.count()
	clk.advance(refreshAfter)
	c.Lookup(ctx, "abc", Host{})
	waitFor(t, "the failed reload", func() bool { return l.batchCount() == 2 })
	clk.advance(TTL - refreshAfter)
	if _, _, err := c.Lookup(ctx, "abc", Host{}); err == nil || l.count() != loads+1 {
		t.Errorf("after a failed reload: err %v, %d loads (want %d)", err, l.count(), loads+1)
	}
}

func TestLocationIsASCII(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/menu?q=1":          "https://example.com/menu?q=1",
		"https://bücher.example/straße?q=ä":     "https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4",
		"https://МОСКВА.рф:8443/":               "https://xn--80adxhks.xn--p1ai:8443/",
		"https://例え.テスト/パス":                     "https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9",
		"https://example.com/already%20escaped": "https://example.com/already%20escaped",
	} {
		if got := location(in); got != want {
			t.Errorf("location(%q) = %q, want %q", in, got, want)
		}
	}
}

// A cold cache under a burst: misses wait in one batch while the first
// loads are under way, instead of each taking a query of its own.
func TestCacheBatchesMisses(t *testing.T) {
	l := &fakeLoader{codes: map[string]store.Redirect{}, holdOne: make(chan struct{})}
	for i := range 100 {
		l.codes[fmt.Sprintf("code%03d", i)] = store.Redirect{ID: int64(i + 1), Destination: fmt.Sprintf("https://example.com/%d", i)}
	}
	c := NewCache(l, nil)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			tg, ok, err := c.Lookup(context.Background(), fmt.Sprintf("code%03d", i), Host{})
			if err != nil || !ok || tg.ID != int64(i+1) {
				t.Errorf("code%03d: %+v %v %v", i, tg, ok, err)
			}
		})
	}
	waitFor(t, "the misses to queue", func() bool {
		c.loadMu.Lock()
		defer c.loadMu.Unlock()
		return c.next != nil && len(c.next.codes) == 100-maxLoads
	})
	close(l.holdOne)
	wg.Wait()
	if singles, batches := l.count(), l.batchCount(); singles != maxLoads || batches != 1 {
		t.Errorf("%d single loads and %d batches for 100 misses; want %d and 1", singles, batches, maxLoads)
	}
}

// A batch that fails is retried code by code: a code the database refuses
// fails its own lookup, never those of the good codes loaded with it, on a
// miss or on a background refresh.
func TestCacheFailedBatchRetriedCodeByCode(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{codes: map[string]store.Redirect{}, holdOne: make(chan struct{}), refuse: "refused"}
	for i := range 20 {
		l.codes[fmt.Sprintf("code%03d", i)] = store.Redirect{ID: int64(i + 1), Destination: fmt.Sprintf("https://example.com/%d", i)}
	}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)
	var wg sync.WaitGroup
	// The first maxLoads misses hold the loads; the rest, refused among
	// them, gather in one batch.
	for i := range maxLoads {
		wg.Go(func() { c.Lookup(ctx, fmt.Sprintf("code%03d", i), Host{}) })
	}
	waitFor(t, "the first loads", func() bool {
		c.loadMu.Lock()
		defer c.loadMu.Unlock()
		return c.loading == maxLoads
	})
	for i := maxLoads; i < 20; i++ {
		wg.Go(func() {
			code := fmt.Sprintf("code%03d", i)
			if tg, ok, err := c.Lookup(ctx, code, Host{}); err != nil || !ok || tg.ID != int64(i+1) {
				t.Errorf("%s, batched with a refused code: %+v %v %v", code, tg, ok, err)
			}
		})
	}
	wg.Go(func() {
		if _, _, err := c.Lookup(ctx, "refused", Host{}); !errors.Is(err, errRefused) {
			t.Errorf("the refused code: err %v", err)
		}
	})
	waitFor(t, "the misses to queue", func() bool {
		c.loadMu.Lock()
		defer c.loadMu.Unlock()
		return c.next != nil && len(c.next.codes) == 20-maxLoads+1
	})
	close(l.holdOne)
	wg.Wait()
	if l.batchCount() != 1 {
		t.Fatalf("%d batches, want 1", l.batchCount())
	}

	// A refresh batch with the refused code reloads the good ones.
	l.mu.Lock()
	l.codes["refused"] = store.Redirect{ID: 99, Destination: "https://example.com/refused"}
	l.refuse = ""
	l.mu.Unlock()
	c.Lookup(ctx, "refused", Host{})
	l.mu.Lock()
	l.refuse = "refused"
	l.codes["code010"] = store.Redirect{ID: 11, Destination: "https://example.com/changed"}
	l.mu.Unlock()
	clk.advance(refreshAfter)
	c.Lookup(ctx, "refused", Host{})
	c.Lookup(ctx, "code010", Host{}) // both queued for one reload
	waitFor(t, "the reload", func() bool { return l.batchCount() == 2 })
	waitFor(t, "the good code reloaded", func() bool {
		tg, _, _ := c.Lookup(ctx, "code010", Host{})
		return tg.Location[0] == "https://example.com/changed"
	})
}

// Primed codes answer without loading.
func TestCachePrime(t *testing.T) {
	l := &fakeLoader{codes: map[string]store.Redirect{}}
	c := NewCache(l, nil)
	c.Prime(map[string][]store.Redirect{"warm0001": {{ID: 9, Destination: "https://example.com/warm"}}})
	tg, ok, err := c.Lookup(context.Background(), "warm0001", Host{})
	if err != nil || !ok || tg.ID != 9 || tg.Location[0] != "https://example.com/warm" || l.count()+l.batchCount() != 0 {
		t.Errorf("Lookup = %+v %v %v after %d loads", tg, ok, err, l.count()+l.batchCount())
	}
}

// TestCacheKeepsUnchangedRouter: reloading a routed code whose routing did
// not change keeps its compiled router; a changed routing is compiled anew.
func TestCacheKeepsUnchangedRouter(t *testing.T) {
	ctx := context.Background()
	routing := `{"rules":[{"when":{"os":["ios"]},"destination":"https://ios.example"}]}`
	l := &fakeLoader{codes: map[string]store.Redirect{"abc": {ID: 1, Destination: "https://a.example", Routing: routing}}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := NewCache(l, clk.now)
	first, _, _ := c.Lookup(ctx, "abc", Host{})
	clk.advance(TTL)
	again, _, _ := c.Lookup(ctx, "abc", Host{})
	if l.count() != 2 || first.Router == nil || again.Router != first.Router {
		t.Fatalf("loads %d, routers %p then %p", l.count(), first.Router, again.Router)
	}
	l.set("abc", store.Redirect{ID: 1, Destination: "https://a.example", Routing: `{"scanLimit":5}`})
	clk.advance(TTL)
	changed, _, _ := c.Lookup(ctx, "abc", Host{})
	if changed.Router == first.Router || !changed.Router.Limited {
		t.Fatalf("a changed routing kept the old router: %+v", changed.Router)
	}
}

// A map holds values of at most 128 bytes in place; a larger entry would
// cost every hit a pointer chase.
func TestCacheEntryFitsInMap(t *testing.T) {
	if n := unsafe.Sizeof(entry{}); n > 128 {
		t.Errorf("an entry is %d bytes, over 128", n)
	}
}

// BenchmarkLookup is a scan's cache hit, going round 10,000 cached codes:
// the redirect hot path's lookup without the database.
func BenchmarkLookup(b *testing.B) {
	l := &fakeLoader{codes: map[string]store.Redirect{}}
	codes := make([]string, 10000)
	for i := range codes {
		codes[i] = fmt.Sprintf("code%04d", i)
		l.codes[codes[i]] = store.Redirect{ID: int64(i + 1), Destination: "https://example.com/" + codes[i]}
	}
	c := NewCache(l, nil)
	ctx := context.Background()
	for _, code := range codes {
		c.Lookup(ctx, code, Host{})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i = (i + 3889) % len(codes)
		if tg, ok, err := c.Lookup(ctx, codes[i], Host{}); !ok || err != nil || tg.ID != int64(i+1) {
			b.Fatal(tg, ok, err)
		}
	}
}

// One short code on three hosts: the base URL's code (workspace 1), its
// domain 10's, and workspace 2's domain 20's. Each host answers its own;
// a workspace's domain falls back to the workspace's base-URL code, then
// to its code on another of its domains; another workspace's never.
func TestPick(t *testing.T) {
	base := Target{ID: 1, WorkspaceID: 1}
	on10 := Target{ID: 2, WorkspaceID: 1, DomainID: 10}
	on20 := Target{ID: 3, WorkspaceID: 2, DomainID: 20}
	all := []Target{base, on10, on20}
	for _, c := range []struct {
		name string
		ts   []Target
		host Host
		want int64 // 0: none
	}{
		{"base URL", all, Host{}, 1},
		{"domain 10", all, Host{DomainID: 10, WorkspaceID: 1}, 2},
		{"domain 20", all, Host{DomainID: 20, WorkspaceID: 2}, 3},
		{"workspace 1's other domain: its base-URL code", all, Host{DomainID: 11, WorkspaceID: 1}, 1},
		{"workspace 1's other domain, no base-URL code", []Target{on20, on10}, Host{DomainID: 11, WorkspaceID: 1}, 2},
		{"workspace 3's domain: none of its own", all, Host{DomainID: 30, WorkspaceID: 3}, 0},
		{"base URL, no code of its own: the oldest", []Target{on20, on10}, Host{}, 3},
		{"one code, on the base URL", []Target{base}, Host{}, 1},
		{"one code, on its domain", []Target{on10}, Host{DomainID: 10, WorkspaceID: 1}, 2},
		{"one code, on another domain of its workspace", []Target{on10}, Host{DomainID: 11, WorkspaceID: 1}, 2},
		{"one code, on the base URL's host", []Target{on20}, Host{}, 3},
		{"one code, on another workspace's domain", []Target{on20}, Host{DomainID: 10, WorkspaceID: 1}, 0},
	} {
		got, ok := answer(pick(&c.ts[0], c.ts[1:], c.host))
		if ok != (c.want != 0) || got.ID != c.want {
			t.Errorf("%s: %+v, %v; want id %d", c.name, got, ok, c.want)
		}
		// An entry of one code answers as pick, by its shorter way.
		if len(c.ts) == 1 {
			e := entry{first: c.ts[0], found: true}
			if got, ok := answer(e.pick(c.host)); ok != (c.want != 0) || got.ID != c.want {
				t.Errorf("%s, one code's entry: %+v, %v; want id %d", c.name, got, ok, c.want)
			}
		}
	}
}

// A short code cached with every host's code: each host's scan answers its
// own, and invalidating the short code after one host's edit reloads them
// all, the other hosts' unchanged.
func TestCacheShortCodeOnSeveralHosts(t *testing.T) {
	ctx := context.Background()
	l := &fakeLoader{hosts: map[string][]store.Redirect{"menu": {
		{ID: 1, WorkspaceID: 1, Destination: "https://base.example"},
		{ID: 2, WorkspaceID: 1, DomainID: 10, Destination: "https://ten.example"},
		{ID: 3, WorkspaceID: 2, DomainID: 20, Destination: "https://twenty.example"},
	}}}
	c := NewCache(l, nil)
	hosts := map[Host]string{
		{}:                             "https://base.example",
		{DomainID: 10, WorkspaceID: 1}: "https://ten.example",
		{DomainID: 20, WorkspaceID: 2}: "https://twenty.example",
	}
	check := func(when string) {
		t.Helper()
		for h, want := range hosts {
			if tg, ok, err := c.Lookup(ctx, "menu", h); err != nil || !ok || tg.Location[0] != want {
				t.Errorf("%s, host %+v: %+v %v %v, want %s", when, h, tg, ok, err, want)
			}
		}
	}
	check("first")
	if l.count() != 1 {
		t.Errorf("%d loads for three hosts, want 1", l.count())
	}
	// Domain 10's code changes: its edit invalidates the short code.
	l.mu.Lock()
	l.hosts["menu"] = slices.Clone(l.hosts["menu"])
	l.hosts["menu"][1].Destination = "https://ten.example/new"
	l.mu.Unlock()
	c.Invalidate("menu")
	hosts[Host{DomainID: 10, WorkspaceID: 1}] = "https://ten.example/new"
	check("after the edit")
	if l.count() != 2 {
		t.Errorf("%d loads, want 2", l.count())
	}
	if n := testing.AllocsPerRun(1000, func() { c.Lookup(ctx, "menu", Host{DomainID: 20, WorkspaceID: 2}) }); n != 0 {
		t.Errorf("a hit among several codes allocates %v times", n)
	}
}

package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/pages"
	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// withCacheClock gives the server a redirect cache on the test's clock, so
// a test can move past its expiry.
func withCacheClock() option {
	return func(d *Deps) { d.Redirects = scans.NewCache(d.Store, d.Now) }
}

func TestHealthAndReadiness(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		expect(t, e.do(c, "GET", "/healthz", ""), http.StatusOK, "")
		if m := expect(t, e.do(c, "GET", "/readyz", ""), http.StatusOK, ""); m["status"] != "ready" {
			t.Errorf("readyz = %v", m)
		}
		st.Close()
		expect(t, e.do(c, "GET", "/healthz", ""), http.StatusOK, "")
		expect(t, e.do(c, "GET", "/readyz", ""), http.StatusServiceUnavailable, "The database is not ready.")
	})
}

// GET /tls/allowed is the ask of a proxy's on-demand certificates: the
// hosts Squarely serves, and no other name, however it is written.
func TestTLSAllowed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, userID := e.signedIn("tls@example.com")
		ws := storetest.Personal(t, st, userID)
		for i, name := range []string{"qr.verified.example", "qr.pending.example"} {
			if err := st.CreateDomain(context.Background(), ws, &store.Domain{Domain: name, Token: fmt.Sprint("token", i)}, 10, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		var verified int64
		storetest.QueryRow(t, st, `UPDATE workspace_domains SET verified_at = created_at, method = 'dns' WHERE domain = 'qr.verified.example' RETURNING id`, nil, &verified)
		for name, want := range map[string]int{
			"localhost":           200, // the base URL's host (testConfig)
			"qr.verified.example": 200, "QR.Verified.Example.": 200,
			"qr.pending.example": 404, "elsewhere.example": 404, "": 404, "a\x00b": 404, "%ff": 404, strings.Repeat("a.", 600): 404,
		} {
			if r := e.do(c, "GET", "/tls/allowed?domain="+url.QueryEscape(name), ""); r.StatusCode != want {
				t.Errorf("%q: %d, want %d", name, r.StatusCode, want)
			}
		}
		if r := e.do(c, "GET", "/tls/allowed?domain=a%00b", ""); r.StatusCode != 404 {
			t.Errorf("a NUL: %d", r.StatusCode)
		}
		// A long name is refused before its Punycode is worked out, which
		// takes its characters times its distinct ones: 40,000 distinct
		// ones (a 360 KB query) took 49 s.
		var long strings.Builder
		for i := range 40_000 {
			long.WriteRune(rune(0x4E00 + i))
		}
		start := time.Now()
		if r := e.do(c, "GET", "/tls/allowed?domain="+url.QueryEscape(long.String()), ""); r.StatusCode != 404 {
			t.Errorf("a long name: %d", r.StatusCode)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a long name took %v", d)
		}
	})
}

// A client that hangs up while its code is looked up is neither answered
// 503 nor logged as an error.
func TestRedirectClientHangsUp(t *testing.T) {
	e := start(t, storetest.Open(t))
	h := e.srv.Config.Handler
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "/d/Unknown1", nil)
	w := &statusRecorder{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == http.StatusServiceUnavailable || strings.Contains(e.logs.String(), "level=ERROR") {
		t.Errorf("status %d, log:\n%s", w.status, e.logs.String())
	}
}

type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) WriteHeader(status int)      { r.status = status }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }

// A cached code keeps redirecting through a database outage, long past
// its cache entry's expiry, with the failures logged at a bounded rate.
func TestRedirectThroughClosedDatabase(t *testing.T) {
	st := storetest.Open(t)
	rec := scans.NewRecorder(failingSink{}, scans.Options{})
	e := start(t, st, withRecorder(rec), withCacheClock())
	c, _ := e.signedIn("stale@example.com")
	code := e.createDynamic(c, "https://example.com/stale")["shortCode"].(string)
	expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/stale")
	st.Close()
	for range 60 {
		e.clock.Advance(time.Second)
		expectRedirect(t, e.scan(code, iPhoneUA), "https://example.com/stale")
	}
	// A minute of failures at one line per 10 s.
	if n := strings.Count(e.logs.String(), "looking up a short code"); n < 1 || n > 7 {
		t.Errorf("%d error lines for 60 failed lookups:\n%s", n, e.logs.String())
	}
}

// proxy forwards TCP connections to a database until it is cut, which
// closes every connection and refuses new ones: an outage the store cannot
// tell from a real one.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				in.Close()
				continue
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
	return p
}

// cut starts (down) or ends an outage.
func (p *proxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// A PostgreSQL outage: cached codes keep redirecting, unknown ones answer
// 503, and every scan answered during it is saved once the database is
// back.
func TestRedirectThroughPostgresOutage(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	ctx := context.Background()
	st, err := store.Open(ctx, u.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rec := scans.NewRecorder(st, scans.Options{Interval: 50 * time.Millisecond})
	e := start(t, st, withRecorder(rec), withCacheClock())
	user := storetest.CreateUser(t, st, "outage@example.com")
	d := storetest.CreateDynamic(t, st, user.ID, "outage01")
	expectRedirect(t, e.scan("outage01", iPhoneUA), d.Destination)

	p.cut(true)
	answered := 1
	for range 40 {
		e.clock.Advance(500 * time.Millisecond)
		expectRedirect(t, e.scan("outage01", iPhoneUA), d.Destination)
		answered++
	}
	if r := e.scan("Unknown1", iPhoneUA); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("unknown code during the outage: %d", r.StatusCode)
	}
	p.cut(false)

	closeCtx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	if err := rec.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	got, err := st.DynamicCode(ctx, user.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ScanCount != int64(answered) {
		t.Errorf("%d scans saved, %d answered (recorder %+v)", got.ScanCount, answered, rec.Stats())
	}
}

// fleet returns a function starting instances on one fresh PostgreSQL
// schema, each with its redirect, GS1 and page caches kept current by listening
// to the store's announcements (Invalidators), as cmd/squarely does.
func fleet(t *testing.T) func() *env {
	dsn := storetest.PostgresURL(t)
	ctx, stop := context.WithCancel(context.Background())
	var listeners sync.WaitGroup
	t.Cleanup(func() { stop(); listeners.Wait() })
	return func() *env {
		st, err := store.Open(ctx, dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		redirects := scans.NewCache(st, nil)
		products := gs1.NewCache(&gs1.Products{Store: st}, nil)
		live := pages.NewLive(scans.TTL, nil)
		changed, lost := Invalidators(redirects, products, live)
		// ListenRedirects says nothing when it starts listening: a
		// notification of its own arriving says it does.
		listening := make(chan struct{})
		var once sync.Once
		listeners.Go(func() {
			st.ListenRedirects(ctx, func(key string) {
				if key == "probe" {
					once.Do(func() { close(listening) })
				}
				changed(key)
			}, lost, func(err error) { t.Log(err) })
		})
		for deadline := time.Now().Add(5 * time.Second); ; {
			st.NotifyRedirect(ctx, "probe")
			select {
			case <-listening:
				return start(t, st, func(d *Deps) { d.Redirects, d.GS1, d.Pages = redirects, products, live })
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatal("the instance does not listen")
			}
		}
	}
}

// With two instances on one PostgreSQL database, every change to what a
// scan resolves to made through one (the app's routes and the public
// API's: edit, pause, resume, password, routing, deletion of a code, a
// workspace, an account) reaches the other's cache within a second, long
// before its entries expire: the store announces each write
// (TestWritesAnnounceRedirects keeps new writes doing so).
func TestChangesReachEveryInstance(t *testing.T) {
	instance := fleet(t)
	a, b := instance(), instance()
	c, _ := a.signedIn("fleet@example.com")
	m := a.createDynamic(c, "https://example.com/one")
	code, id := m["shortCode"].(string), idOf(m)
	expectRedirect(t, b.scan(code, iPhoneUA), "https://example.com/one")

	within := func(what string, ok func(r *response) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Second)
		for {
			r := b.scan(code, iPhoneUA)
			if ok(r) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: instance b still answers %d %q after 1 s", what, r.StatusCode, r.Header.Get("Location"))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	expect(t, a.do(c, "PUT", "/api/dynamic-qrcodes/"+id, `{"destination":"https://example.com/two"}`), http.StatusOK, "")
	within("edit", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/two" })
	expect(t, a.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/pause", ""), http.StatusOK, "")
	within("pause", func(r *response) bool { return r.StatusCode == http.StatusGone })
	expect(t, a.do(c, "POST", "/api/dynamic-qrcodes/"+id+"/resume", ""), http.StatusOK, "")
	within("resume", func(r *response) bool { return r.StatusCode == http.StatusFound })
	expect(t, a.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/password", `{"password":"secret1"}`), http.StatusOK, "")
	within("password", func(r *response) bool { return r.StatusCode == http.StatusOK })
	expect(t, a.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/password", `{"password":""}`), http.StatusOK, "")
	within("password removed", func(r *response) bool { return r.StatusCode == http.StatusFound })
	// The public API's changes, and routing, announce the same way.
	key, _ := a.newKey(c, "fleet")
	v1 := "/api/v1/codes/d_" + id
	expect(t, a.api(key, "PATCH", v1, `{"destination":"https://example.com/three"}`), http.StatusOK, "")
	within("v1 edit", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/three" })
	expect(t, a.api(key, "PATCH", "/api/v1/codes/batch", `{"items":[{"id":"d_`+id+`","destination":"https://example.com/batch"}]}`), http.StatusOK, "")
	within("v1 batch edit", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/batch" })
	expect(t, a.api(key, "PATCH", v1, `{"destination":"https://example.com/three"}`), http.StatusOK, "")
	within("v1 edit again", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/three" })
	expect(t, a.api(key, "POST", v1+"/pause", ""), http.StatusOK, "")
	within("v1 pause", func(r *response) bool { return r.StatusCode == http.StatusGone })
	expect(t, a.api(key, "POST", v1+"/resume", ""), http.StatusOK, "")
	within("v1 resume", func(r *response) bool { return r.StatusCode == http.StatusFound })
	expect(t, a.api(key, "PUT", v1+"/routing", `{"rules":[{"when":{"os":["ios"]},"destination":"https://example.com/ios"}]}`), http.StatusOK, "")
	within("v1 routing", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/ios" })
	expect(t, a.do(c, "PUT", "/api/dynamic-qrcodes/"+id+"/routing", `null`), http.StatusOK, "")
	within("routing", func(r *response) bool { return r.Header.Get("Location") == "https://example.com/three" })
	if r := a.do(c, "DELETE", "/api/dynamic-qrcodes/"+id, ""); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", r.StatusCode)
	}
	within("delete", func(r *response) bool { return r.StatusCode == http.StatusNotFound })

	// Deleting a workspace announces all its codes.
	ws := expect(t, a.do(c, "POST", "/api/workspaces", `{"name":"Fleet"}`), http.StatusCreated, "")
	wsPath := fmt.Sprintf("/api/workspaces/%v", ws["id"])
	expect(t, a.do(c, "POST", wsPath+"/activate", ""), http.StatusOK, "")
	for _, dest := range []string{"https://example.com/w1", "https://example.com/w2"} {
		code = a.createDynamic(c, dest)["shortCode"].(string)
		expectRedirect(t, b.scan(code, iPhoneUA), dest)
	}
	if r := a.do(c, "DELETE", wsPath, ""); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete workspace: %d %s", r.StatusCode, r.body)
	}
	within("workspace deletion", func(r *response) bool { return r.StatusCode == http.StatusNotFound })

	// The public API's deletion, and an account's deletion, stop codes too.
	made := expect(t, a.api(key, "POST", "/api/v1/codes", `{"kind":"dynamic","destination":"https://example.com/v1"}`), http.StatusCreated, "")
	code = made["shortCode"].(string)
	expectRedirect(t, b.scan(code, iPhoneUA), "https://example.com/v1")
	if r := a.api(key, "DELETE", "/api/v1/codes/"+made["id"].(string), ""); r.StatusCode != http.StatusNoContent {
		t.Fatalf("v1 delete: %d %s", r.StatusCode, r.body)
	}
	within("v1 delete", func(r *response) bool { return r.StatusCode == http.StatusNotFound })
	leaver, _ := a.signedIn("leaver@example.com")
	code = a.createDynamic(leaver, "https://example.com/leaver")["shortCode"].(string)
	expectRedirect(t, b.scan(code, iPhoneUA), "https://example.com/leaver")
	expect(t, a.do(leaver, "POST", "/api/delete-account", ""), http.StatusOK, "")
	within("account deletion", func(r *response) bool { return r.StatusCode == http.StatusNotFound })
}

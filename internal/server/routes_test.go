package server

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestAPIFallbacks(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c := e.browser()
		expect(t, e.do(c, "GET", "/api/nope", ""), http.StatusNotFound, "Not found")
		expect(t, e.do(c, "POST", "/api/nope/deeper", `{}`), http.StatusNotFound, "Not found")
		expect(t, e.do(c, "GET", "/api/", ""), http.StatusNotFound, "Not found")
		expect(t, e.do(c, "GET", "/API/USER", ""), http.StatusNotFound, "") // not the API: the app's not-found page

		r := e.do(c, "GET", "/api/login", "")
		expect(t, r, http.StatusMethodNotAllowed, "Method not allowed")
		if r.Header.Get("Allow") != "POST" {
			t.Errorf("Allow %q, want POST", r.Header.Get("Allow"))
		}
		r = e.do(c, "DELETE", "/api/user", "")
		expect(t, r, http.StatusMethodNotAllowed, "Method not allowed")
		if allow := r.Header.Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "HEAD") {
			t.Errorf("Allow %q, want GET, HEAD", allow)
		}
	})
}

func TestSPA(t *testing.T) {
	e := start(t, storetest.Open(t))
	c := e.browser()
	for _, tc := range []struct {
		method, path string
		status       int
		body, cache  string
	}{
		{"GET", "/", 200, "<!doctype html><title>app</title>", "no-cache"},
		{"GET", "/index.html", 200, "<!doctype html><title>app</title>", "no-cache"},
		// The app's pages carry their session's first answers (boot.go): never stored.
		{"GET", "/auth", 200, "<!doctype html><title>app</title>", "no-store"},
		{"GET", "/AUTH", 200, "<!doctype html><title>app</title>", "no-store"},
		{"GET", "/dashboard?create=true", 200, "<!doctype html><title>app</title>", "no-store"},
		{"GET", "/no/such/page", 404, "<!doctype html><title>app</title>", "no-cache"},
		{"GET", "/assets", 404, "<!doctype html><title>app</title>", "no-cache"},
		{"GET", "/%2e%2e/%2e%2e/etc/passwd", 404, "<!doctype html><title>app</title>", "no-cache"},
		{"HEAD", "/auth", 200, "", "no-store"},
		{"GET", "/favicon.svg", 200, "<svg/>", "no-cache"},
		{"GET", "/assets/app-abc1.js", 200, "console.log(1)", "public, max-age=31536000, immutable"},
		{"GET", "/assets/missing-123.js", 404, "404 page not found\n", ""},
		{"GET", "/assets/sub/", 404, "404 page not found\n", ""},
		{"POST", "/dashboard", 405, "Method Not Allowed\n", ""},
	} {
		r := e.do(c, tc.method, tc.path, "")
		if r.StatusCode != tc.status || string(r.body) != tc.body || r.Header.Get("Cache-Control") != tc.cache {
			t.Errorf("%s %s: %d %q Cache-Control %q; want %d %q %q", tc.method, tc.path,
				r.StatusCode, r.body, r.Header.Get("Cache-Control"), tc.status, tc.body, tc.cache)
		}
	}
	if ct := e.do(c, "GET", "/assets/app-abc1.js", "").Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("JS Content-Type %q", ct)
	}
	if ct := e.do(c, "GET", "/", "").Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("index Content-Type %q", ct)
	}
}

func TestRequestLogHidesSecrets(t *testing.T) {
	e := start(t, storetest.Open(t))
	c := e.browser()
	token := e.do(c, "POST", "/api/register?invite=query-secret", registerBody("log@example.com", "pass-secret")).cookie().Value
	e.do(c, "GET", "/api/user?x=query-secret", "")
	logs := e.logs.String()
	for _, want := range []string{"method=POST path=/api/register status=201", "method=GET path=/api/user status=200", "bytes=", "duration="} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	for _, secret := range []string{"query-secret", "pass-secret", token} {
		if strings.Contains(logs, secret) {
			t.Errorf("log contains %q:\n%s", secret, logs)
		}
	}
}

func TestPanicRecovered(t *testing.T) {
	var logs syncBuffer
	s := &server{log: slog.New(slog.NewTextHandler(&logs, nil))}
	h := s.logRequests(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/boom", nil))
	if rec.Code != 500 || strings.TrimSpace(rec.Body.String()) != `{"message":"Internal server error"}` {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), "status=500") {
		t.Errorf("log: %s", logs.String())
	}
}

func TestSecurityHeaders(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("headers@example.com")
		img := expect(t, e.postForm(c, "/api/upload-image", part{"imageFile", string(pngBytes(t, 8, 8)), "a.png"}), http.StatusCreated, "")
		id := idOf(img)
		for _, tc := range []struct {
			path, csp, frame string
		}{
			{"/", appCSP, "DENY"},
			{"/dashboard", appCSP, "DENY"},
			{"/pdf/preview", appCSP, "DENY"}, // the app's placeholder page
			{"/api/user", apiCSP, "DENY"},
			{"/api/nope", apiCSP, "DENY"},
			{"/images/" + id, filePageCSP, ""},
			{"/images/" + id + "/file", blobCSP, ""}, // framed by its page
			{"/d/nothere", pageCSP, ""},
		} {
			r := e.do(c, "GET", tc.path, "")
			h := r.Header
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "strict-origin-when-cross-origin" {
				t.Errorf("%s: nosniff %q, Referrer-Policy %q", tc.path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
			}
			if h.Get("Content-Security-Policy") != tc.csp || h.Get("X-Frame-Options") != tc.frame {
				t.Errorf("%s: CSP %q, X-Frame-Options %q; want %q, %q", tc.path, h.Get("Content-Security-Policy"), h.Get("X-Frame-Options"), tc.csp, tc.frame)
			}
		}
		// A code image keeps its own CSP.
		code := e.createDynamic(c, "https://example.com/")
		r := e.do(c, "GET", "/api/dynamic-qrcodes/"+idOf(code)+"/image", "")
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src data:") {
			t.Errorf("code image CSP %q", csp)
		}
	})
}

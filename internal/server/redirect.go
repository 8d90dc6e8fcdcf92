package server

import (
	"cmp"
	"errors"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/scans"
	"github.com/squarely/squarely/internal/store"
)

// The redirect hot path (GET /d/{shortCode}). routes.go mounts it in front
// of the site's middleware: a scan needs no session, no CSRF check and no
// Info log line (at thousands of scans a second the log would cost more
// than the redirect). Scans are logged at Debug; errors still at Error.
// A cached code is answered without touching the database, and the scan is
// handed to the recorder, which saves it off the request path.

// scanPattern is the route of a scan; gs1Pattern the GS1 Digital Link
// resolver's (gs1.go).
const (
	scanPattern = "GET /d/{shortCode}"
	gs1Pattern  = "GET /01/"
)

// scansFirst answers a scan on the base host (GET or HEAD of a short URL,
// or of a GS1 Digital Link under /01/) on the shortest path, ahead of the
// mux and the site's wrappers: the headers every answer carries, its
// request id and its metric (under scanPattern or gs1Pattern), then
// redirect or resolve. At thousands of scans a second the route slot, the
// second copy of the request and the custom-domain check the wrappers
// would add cost a tenth of the redirect's CPU. Any other request (a
// custom or client host, a path ServeMux would clean or not match) goes to
// next, which serves it as before.
func (s *server) scansFirst(redirect, resolve, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		pattern, h := gs1Pattern, resolve
		code, scan := strings.CutPrefix(r.URL.Path, "/d/")
		switch {
		case scan && code != "" && code != "." && code != ".." && !strings.Contains(code, "/"):
			pattern, h = scanPattern, redirect
		case scan || !strings.HasPrefix(r.URL.Path, "/01/") || path.Clean(r.URL.Path) != r.URL.Path:
			next.ServeHTTP(w, r)
			return
		}
		if _, custom := s.customHost(r); custom {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		setSecurityHeaders(w)
		r = s.withRequestID(w, r)
		if pattern == scanPattern {
			r.SetPathValue("shortCode", code)
		}
		if s.metrics == nil {
			h.ServeHTTP(w, r)
			return
		}
		rw := &recordingWriter{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		s.metrics.Observe(pattern, r.Method, cmp.Or(rw.status, http.StatusOK), time.Since(start))
	})
}

// noStore keeps browsers and proxies from caching any answer, so every scan
// reaches us (to be counted) and an edit or pause applies to the next one.
var noStore = []string{"no-store"}

const pageCSP = "default-src 'none'; style-src 'unsafe-inline'"

const unavailablePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Try again</title></head>
<body><h1>Please try again in a moment</h1></body></html>
`

// redirect answers a scan: 302 to the destination, 410 when the code is
// paused, 404 when it is unknown or deleted, and for a password-protected
// code the page asking for its password (protect.go). GET scans that are
// redirected or shown that page are recorded; HEAD requests (link checkers)
// are answered but not counted.
func (s *server) redirect(w http.ResponseWriter, r *http.Request) {
	t, ok := s.lookupScan(w, r)
	if !ok {
		return
	}
	if t.Router == nil {
		if r.Method == http.MethodGet {
			s.recorder.Record(scans.Scan{CodeID: t.ID, At: s.now(), UserAgent: r.UserAgent(), Referrer: r.Referer(), RemoteAddr: r.RemoteAddr})
		}
		if t.Protected {
			s.scanPage(w, http.StatusOK, s.clientBrand(r.Context(), t.ClientID), passwordNotice)
			return
		}
		if t.PageID != 0 { // a hosted page: answered with the page itself (hosted.go)
			s.answerPageScan(w, r, t)
			return
		}
		w.Header()["Location"] = t.Location
		w.WriteHeader(http.StatusFound)
		return
	}
	// A routed code (routing.go). A protected one takes its limited scan
	// when it is unlocked, the redirect.
	d, ok := s.routeScan(w, r, t, r.Method == http.MethodGet && !t.Protected)
	if !ok {
		return
	}
	if r.Method == http.MethodGet {
		s.recorder.Record(scans.Scan{CodeID: t.ID, At: s.now(), UserAgent: r.UserAgent(), Referrer: r.Referer(), RemoteAddr: r.RemoteAddr, Route: d.Route})
	}
	if t.Protected && d.Route != store.RouteEnded {
		s.scanPage(w, http.StatusOK, s.clientBrand(r.Context(), t.ClientID), passwordNotice)
		return
	}
	s.answerRouted(w, r, t, d, http.StatusFound)
}

// lookupScan finds the live, unpaused code a scan names on its host (the
// code of that host, scans.Cache.Lookup); otherwise it has answered 404,
// 410 or 503. While the database fails, a code that was
// cached answers as it last did (scans.ErrStale) and one that was not
// answers 503; the failures are logged at a bounded rate. A client that
// hung up gets nothing. A short code that cannot exist (store.ValidShortCode:
// too long, NUL, invalid UTF-8, outside the alphabet) answers 404 without a
// lookup: it neither reaches the database nor fills the cache.
func (s *server) lookupScan(w http.ResponseWriter, r *http.Request) (scans.Target, bool) {
	code := r.PathValue("shortCode")
	h := w.Header()
	h["Cache-Control"] = noStore
	var t scans.Target
	var found bool
	var err error
	if store.ValidShortCode(code) {
		t, found, err = s.redirects.Lookup(r.Context(), code, scanHost(r))
	}
	if err != nil {
		if r.Context().Err() != nil {
			return t, false
		}
		if ok, held := s.lookupLog.Allow(s.now()); ok {
			s.log.ErrorContext(r.Context(), "looking up a short code", "code", code, "unlogged", held, "err", err)
		}
		if errors.Is(err, scans.ErrStale) {
			err = nil
		}
	}
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.log.DebugContext(r.Context(), "redirect", "code", code, "found", found, "paused", t.Paused, "protected", t.Protected)
	}
	switch {
	case err != nil:
		h.Set("Retry-After", "5")
		page(w, http.StatusServiceUnavailable, unavailablePage)
	case !found:
		// Unknown, or only other workspaces' codes on a workspace's domain.
		s.scanPage(w, http.StatusNotFound, s.hostBrand(r), notFoundNotice)
	case t.Paused:
		s.scanPage(w, http.StatusGone, s.clientBrand(r.Context(), t.ClientID), pausedNotice)
	default:
		return t, true
	}
	return t, false
}

func page(w http.ResponseWriter, status int, html string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write([]byte(html))
}

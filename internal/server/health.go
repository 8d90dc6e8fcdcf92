package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/idna"

	"github.com/squarely/squarely/internal/certs"
)

// Operations: checks for load balancers and metrics for monitoring
// (docs/API.md, "Operations and limits"). They are mounted beside the
// redirects, outside the site's middleware: a probe needs no session and
// is not worth a log line. The metrics themselves are internal/metrics,
// served on SQUARELY_METRICS_ADDR by cmd/squarely.

// readyTimeout bounds the readiness check's wait for the database.
const readyTimeout = 2 * time.Second

// healthz (GET /healthz) answers 200 while the process serves requests.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz (GET /readyz) answers 200 when the database answers and has every
// migration applied, else 503: take the instance out of rotation.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.store.Ready(ctx); err != nil {
		if ok, held := s.lookupLog.Allow(s.now()); ok {
			s.log.ErrorContext(r.Context(), "readiness check", "unlogged", held, "err", err)
		}
		writeError(w, http.StatusServiceUnavailable, "The database is not ready.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// tlsAllowed (GET /tls/allowed?domain=NAME) answers 200 when Squarely
// serves NAME (certs.HostPolicy: the base URL's host, active white-label
// domains, verified custom domains), else 404: the "ask" of a proxy that
// obtains certificates on demand (deploy/Caddyfile), so that it asks the
// CA for those names only, as SQUARELY_TLS=acme does.
func (s *server) tlsAllowed(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("domain")
	if name == "" || len(name) > 4*maxHostLength {
		// Checked before the conversion: Punycode's time grows with a
		// label's characters times its distinct ones, and 40,000 of them
		// (a 360 KB query) took 49 s.
		writeError(w, http.StatusNotFound, "Not a host this server serves.")
		return
	}
	host, err := idna.Lookup.ToASCII(strings.TrimSuffix(name, "."))
	if err != nil {
		writeError(w, http.StatusNotFound, "Not a host this server serves.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	switch err := s.hostPolicy(ctx, host); {
	case errors.Is(err, certs.ErrNotServed):
		writeError(w, http.StatusNotFound, "Not a host this server serves.")
	case err != nil:
		s.internalError(w, "checking a host for a certificate", err)
	default:
		writeJSON(w, http.StatusOK, map[string]string{"domain": host})
	}
}

// metricsToken (GET /metrics on the public listener, only when
// SQUARELY_METRICS_TOKEN is set) answers the metrics to a request bearing
// the token, and 401 to any other.
func (s *server) metricsToken(next http.Handler) http.Handler {
	want := []byte("Bearer " + s.cfg.MetricsToken)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeError(w, http.StatusUnauthorized, "A valid metrics token is required.")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// routeKey is the context key of the routeSlot observe leaves for the
// innermost ServeMux to fill.
type routeKey struct{}

type routeSlot struct{ pattern string }

// observe counts each request in the metrics by the pattern of the route
// that served it. The pattern is set by the ServeMux deepest in the
// handler chain (notePattern), on a request this middleware does not see,
// so it is passed back through a slot in the context.
func (s *server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		slot := &routeSlot{}
		rw := &recordingWriter{ResponseWriter: w}
		defer func() {
			status := rw.status
			if status == 0 {
				status = http.StatusOK
			}
			s.metrics.Observe(slot.pattern, r.Method, status, time.Since(start))
		}()
		next.ServeHTTP(rw, r.WithContext(context.WithValue(r.Context(), routeKey{}, slot)))
	})
}

// notePattern records mux's matching pattern for observe, unless a mux
// nested deeper has already: ServeMux sets r.Pattern on the request it is
// given, so it is read after mux returns, innermost first.
func notePattern(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		noteRoute(r, r.Pattern)
	})
}

// noteRoute records pattern as r's route for observe, if none is yet.
func noteRoute(r *http.Request, pattern string) {
	if slot, ok := r.Context().Value(routeKey{}).(*routeSlot); ok && slot.pattern == "" {
		slot.pattern = pattern
	}
}

package server

import (
	"context"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/squarely/squarely/internal/logging"
)

// middleware wraps the whole site, outermost first: the client address
// behind a proxy, logging with panic recovery, the white-label client of
// the Host, then CSRF protection.
func (s *server) middleware(h http.Handler) http.Handler {
	csrf := http.NewCrossOriginProtection()
	// The public origin is trusted too, for proxies that rewrite Host.
	if err := csrf.AddTrustedOrigin(s.cfg.BaseURL); err != nil {
		s.log.Warn("SQUARELY_BASE_URL is not a valid origin for CSRF checks", "err", err)
	}
	// An IdP posts its SAML response from its own origin; the response
	// is signed, and answers a request this site made (internal/server/sso.go).
	csrf.AddInsecureBypassPattern("POST /auth/saml/{id}/acs")
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, "Cross-origin request blocked")
	}))
	h = csrf.Handler(h)
	h = s.withClient(h)
	h = s.logRequests(h)
	if s.cfg.TrustProxy {
		h = forwardedFor(h)
	}
	return h
}

// appCSP is the React app's policy: its own scripts only (Vite emits no
// inline script), inline styles (style attributes of React and the styled
// SVGs), the live previews as data: images and uploaded logos from /logo/,
// white-label clients' logos and favicons from any https origin, API calls
// to this origin, and no framing by other sites.
const appCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// stripeCSP is appCSP plus what Stripe.js needs (its script, its frames for
// the pricing table and card form, its API, its images), sent only with the
// pages that load it: /subscribe and /payment (issue 11).
const stripeCSP = "default-src 'self'; script-src 'self' https://js.stripe.com https://*.js.stripe.com; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https://*.stripe.com; font-src 'self' data:; " +
	"connect-src 'self' https://api.stripe.com; " +
	"frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// apiCSP goes with API answers: JSON loads nothing, and is never framed.
// The code images set their own.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// securityHeaders sets what every answer carries: no type sniffing, and
// only the origin in the Referer sent to other sites (short links and
// upload pages are shared). Handlers set their own CSPs. The values are
// shared slices under canonical keys, as noStore is: Header.Set would
// allocate both for every request, scans included. A handler that sets
// or adds one of them gets a slice of its own.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w)
		next.ServeHTTP(w, r)
	})
}

func setSecurityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h["X-Content-Type-Options"] = nosniff
	h["Referrer-Policy"] = referrerPolicy
}

var (
	nosniff        = []string{"nosniff"}
	referrerPolicy = []string{"strict-origin-when-cross-origin"}
)

// frameDenied sets csp and refuses framing, also to browsers that know
// only X-Frame-Options.
func frameDenied(csp string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// forwardedFor replaces RemoteAddr with the address the load balancer saw,
// the last entry of X-Forwarded-For (entries before it come from the client
// and can be forged). Only used with SQUARELY_TRUST_PROXY.
func forwardedFor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		xff := r.Header.Values("X-Forwarded-For")
		if len(xff) > 0 {
			last := xff[len(xff)-1]
			last = strings.TrimSpace(last[strings.LastIndexByte(last, ',')+1:])
			if addr, err := netip.ParseAddr(last); err == nil {
				r2 := *r
				r2.RemoteAddr = netip.AddrPortFrom(addr, 0).String()
				r = &r2
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requestID gives every request an id (issue 25): the proxy's
// X-Request-Id when SQUARELY_TRUST_PROXY says it is ours and the id is
// well-formed, else a fresh one. It is returned in X-Request-Id and
// carried in the request's context, so every log line of the request
// names it.
func (s *server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, s.withRequestID(w, r))
	})
}

// withRequestID gives the request its id (the trusted proxy's, or a fresh
// one), on the response and in the context its log lines use.
func (s *server) withRequestID(w http.ResponseWriter, r *http.Request) *http.Request {
	id := r.Header.Get("X-Request-Id")
	if !s.cfg.TrustProxy || !logging.ValidRequestID(id) {
		id = logging.NewRequestID()
	}
	w.Header().Set("X-Request-Id", id)
	return r.WithContext(logging.WithRequestID(r.Context(), id))
}

// logContext is the context to log with where only the response is at
// hand: it carries the request id requestID set on the response.
func logContext(w http.ResponseWriter) context.Context {
	return logging.WithRequestID(context.Background(), w.Header().Get("X-Request-Id"))
}

// logRequests logs one line per request: method, path (never the query,
// which may hold tokens), status, duration and bytes written. A panic in a
// handler is logged with its stack and answered with a JSON 500.
func (s *server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rw := &recordingWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				if rw.status == 0 {
					writeError(rw, http.StatusInternalServerError, "Internal server error")
				}
			}
			if rw.status == 0 {
				rw.status = http.StatusOK
			}
			s.log.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", rw.status,
				"duration", time.Since(start), "bytes", rw.bytes)
		}()
		next.ServeHTTP(rw, r)
	})
}

// recordingWriter remembers the status and counts the body bytes.
type recordingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *recordingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach Flush and deadlines.
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

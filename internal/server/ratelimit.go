package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// anonWritesPerHour bounds, per client address, the visitors' requests
// that store something: saved generations, downloads and payment products
// (live previews store nothing and are not counted). Far above what a
// person clicks, far below filling the database.
const anonWritesPerHour = 100

// admitAnonWrite counts a visitor's request that stores records and
// reports whether it may go on; otherwise it has answered 429. Signed-in
// users are not limited here.
func (s *server) admitAnonWrite(w http.ResponseWriter, r *http.Request, u *store.User) bool {
	if u != nil {
		return true
	}
	return s.anonWrites.take(w, clientKey(r), "Too many QR codes from this address. Please try again later or sign in.")
}

// limiter counts attempts per key (a client address, an account, an
// e-mail) in fixed windows. The counts live in the database (rate_limits),
// so every instance behind a load balancer shares one limit. An attempt is
// counted before the work it guards, so parallel attempts cannot all slip
// under the limit; work that only limits failures refunds on success.
type limiter struct {
	name   string // the counters' name in rate_limits
	limit  int
	window time.Duration
	store  *store.Store
	now    func() time.Time
	log    *slog.Logger

	lastSweep atomic.Int64 // unix nanoseconds of the last cleanup
}

// newLimiter returns the limiter name allowing limit attempts per key per
// window.
func (s *server) newLimiter(name string, limit int, window time.Duration) *limiter {
	return &limiter{name: name, limit: limit, window: window, store: s.store, now: s.now, log: s.log}
}

// limiterTimeout bounds a limiter's database call; the request's own
// context is not at hand and a hung-up client must not skip the count.
const limiterTimeout = 5 * time.Second

// take counts an attempt by key and reports whether it is within the limit;
// otherwise it has answered 429 with message (or 500 when the count could
// not be kept).
func (l *limiter) take(w http.ResponseWriter, key, message string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), limiterTimeout)
	defer cancel()
	now := l.now()
	start := now.Truncate(l.window)
	l.sweep(ctx, start)
	n, err := l.store.CountAttempt(ctx, l.name, key, start)
	if err != nil {
		l.log.ErrorContext(logContext(w), "internal error", "doing", "counting an attempt", "limiter", l.name, "err", err)
		writeError(w, http.StatusInternalServerError, "Internal server error")
		return false
	}
	if n > l.limit {
		tooMany(w, start.Add(l.window).Sub(now), message)
		return false
	}
	return true
}

// refund takes back key's attempt in the current window.
func (l *limiter) refund(key string) {
	ctx, cancel := context.WithTimeout(context.Background(), limiterTimeout)
	defer cancel()
	if err := l.store.RefundAttempt(ctx, l.name, key, l.now().Truncate(l.window)); err != nil {
		l.log.Error("internal error", "doing", "refunding an attempt", "limiter", l.name, "err", err)
	}
}

// sweep forgets past windows' counters, at most once per window per
// instance.
func (l *limiter) sweep(ctx context.Context, start time.Time) {
	last := l.lastSweep.Load()
	if start.UnixNano() <= last || !l.lastSweep.CompareAndSwap(last, start.UnixNano()) {
		return
	}
	if err := l.store.DeleteAttemptsBefore(ctx, l.name, start); err != nil {
		l.log.Warn("forgetting old rate-limit counters", "limiter", l.name, "err", err)
	}
}

// gate caps how many of one kind of heavy work (password hashes) run at
// once per key, per instance: more at once are refused, not queued, so one
// client cannot fill the process-wide bcrypt slots.
type gate struct {
	max int

	mu      sync.Mutex
	running map[string]int
}

func newGate(max int) *gate { return &gate{max: max, running: map[string]int{}} }

// enter reports whether key may start now, and then the caller must call
// leave when done; otherwise it has answered 429 with message.
func (g *gate) enter(w http.ResponseWriter, key, message string) (leave func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[key] >= g.max {
		tooMany(w, time.Second, message)
		return nil, false
	}
	g.running[key]++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.running[key]--; g.running[key] == 0 {
			delete(g.running, key)
		}
	}, true
}

// clientKey is the rate-limit key of the request's client: its IP address,
// or for IPv6 its /64 network, which one subscriber usually owns whole.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// takeQuota counts a call by key, as take does, and reports whether it is
// within the limit, the calls left in the window, and how long until the
// window ends: what the RateLimit headers tell a client.
func (l *limiter) takeQuota(key string) (allowed bool, remaining int, reset time.Duration, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), limiterTimeout)
	defer cancel()
	now := l.now()
	start := now.Truncate(l.window)
	l.sweep(ctx, start)
	n, err := l.store.CountAttempt(ctx, l.name, key, start)
	if err != nil {
		return false, 0, 0, err
	}
	return n <= l.limit, max(l.limit-n, 0), start.Add(l.window).Sub(now), nil
}

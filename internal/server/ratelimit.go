package server

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/store"
)

// maxLimiterKeys bounds a limiter's memory when many addresses show up
// within one window.
const maxLimiterKeys = 100_000

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

// limiter counts events per client address over a sliding window. It lives
// in memory, per instance: behind a load balancer each instance counts on
// its own, which still slows down password guessing and sign-up floods
// without a shared store on the hot path.
type limiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu        sync.Mutex
	events    map[string][]time.Time // per key, oldest first, at most limit
	lastSweep time.Time
}

func newLimiter(limit int, window time.Duration, now func() time.Time) *limiter {
	return &limiter{limit: limit, window: window, now: now, events: map[string][]time.Time{}}
}

// wait returns how long key must wait before its next event is allowed; 0
// when it is allowed now.
func (l *limiter) wait(key string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	ev := l.recent(key, now)
	if len(ev) < l.limit {
		return 0
	}
	return ev[0].Add(l.window).Sub(now)
}

// admit reports whether key may go on; while it is limited, it answers 429
// with message. The attempt is not counted: see add and take.
func (l *limiter) admit(w http.ResponseWriter, key, message string) bool {
	if wait := l.wait(key); wait > 0 {
		tooMany(w, wait, message)
		return false
	}
	return true
}

// take is admit that counts the attempt when it may go on.
func (l *limiter) take(w http.ResponseWriter, key, message string) bool {
	if !l.admit(w, key, message) {
		return false
	}
	l.add(key)
	return true
}

// add records an event for key.
func (l *limiter) add(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addLocked(key, l.now())
}

// addLocked is add with l.mu held.
func (l *limiter) addLocked(key string, now time.Time) {
	l.sweep(now)
	ev := l.recent(key, now)
	if ev == nil && len(l.events) >= maxLimiterKeys {
		for k := range l.events { // evict an arbitrary key to stay bounded
			delete(l.events, k)
			break
		}
	}
	ev = append(ev, now)
	if len(ev) > l.limit {
		ev = ev[len(ev)-l.limit:]
	}
	l.events[key] = ev
}

// recent drops key's events that left the window and returns the rest.
func (l *limiter) recent(key string, now time.Time) []time.Time {
	ev := l.events[key]
	i := 0
	for i < len(ev) && !ev[i].After(now.Add(-l.window)) {
		i++
	}
	if i == len(ev) {
		delete(l.events, key)
		return nil
	}
	l.events[key] = ev[i:]
	return ev[i:]
}

// sweep forgets idle keys, at most once per window.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.window {
		return
	}
	l.lastSweep = now
	for k, ev := range l.events {
		if !ev[len(ev)-1].After(now.Add(-l.window)) {
			delete(l.events, k)
		}
	}
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

// tooMany answers 429 with Retry-After in whole seconds.
func tooMany(w http.ResponseWriter, wait time.Duration, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	writeError(w, http.StatusTooManyRequests, message)
}

package scans

import (
	"sync"
	"time"
)

// Throttle lets a repeated log line through at most once per interval and
// counts the ones it held back, so a flood of failures (a database outage
// under thousands of scans a second) cannot flood the log.
type Throttle struct {
	Every time.Duration

	mu   sync.Mutex
	next time.Time
	held int
}

// Allow reports whether to log now and, if so, how many lines were held
// back since the last one.
func (t *Throttle) Allow(now time.Time) (ok bool, held int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now.Before(t.next) {
		t.held++
		return false, 0
	}
	t.next = now.Add(t.Every)
	held, t.held = t.held, 0
	return true, held
}

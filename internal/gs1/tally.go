package gs1

import "sync"

// ScanKey is what a resolved scan is counted by: no address, no device.
type ScanKey struct {
	WorkspaceID int64
	GTIN        string
	Lot         string
	LinkType    string
	Day         string // UTC, YYYY-MM-DD
}

// Tally counts scans in memory between writes to the store.
type Tally struct {
	mu     sync.Mutex
	counts map[ScanKey]int64
}

// Add counts one scan.
func (t *Tally) Add(k ScanKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[ScanKey]int64{}
	}
	t.counts[k]++
}

// Take returns the counts so far and starts again from none.
func (t *Tally) Take() map[ScanKey]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts
	t.counts = nil
	return c
}

// Restore adds counts back (a write that failed), to go with the next.
func (t *Tally) Restore(c map[ScanKey]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[ScanKey]int64{}
	}
	for k, n := range c {
		t.counts[k] += n
	}
}

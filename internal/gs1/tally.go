package gs1

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/store"
)

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

// FlushEvery is how often Run adds the counted scans to the store.
const FlushEvery = 2 * time.Second

// Scans counts resolved scans (per day, GTIN, lot and link type) in
// memory and adds them to the store every FlushEvery (Run), off the
// request path.
type Scans struct {
	Tally
	Store *store.Store
	Log   *slog.Logger
}

// Run saves the counts every FlushEvery until ctx ends, then once more;
// a failed write is kept for the next, one the database refuses dropped.
func (s *Scans) Run(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.save(context.WithoutCancel(ctx))
			return
		case <-t.C:
			s.save(ctx)
		}
	}
}

func (s *Scans) save(ctx context.Context) {
	counts := s.Take()
	if len(counts) == 0 {
		return
	}
	list := make([]store.GS1ScanCount, 0, len(counts))
	for k, n := range counts {
		day, _ := time.Parse(time.DateOnly, k.Day)
		list = append(list, store.GS1ScanCount{WorkspaceID: k.WorkspaceID, Day: day, GTIN: k.GTIN, Lot: k.Lot, LinkType: k.LinkType, Scans: n})
	}
	switch err := s.Store.AddGS1Scans(ctx, list); {
	case err == nil:
	case store.Refused(err): // writing them again would fail again
		s.Log.Error("saving GS1 scan counts; dropped", "counts", len(list), "err", err)
	default:
		s.Restore(counts)
		s.Log.Error("saving GS1 scan counts; kept for the next try", "err", err)
	}
}

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
	// Listed is whether the product lists Lot: a listed lot is always
	// counted under its own name, an unlisted one only among the first
	// store.GS1UnlistedLots of its workspace, day and GTIN.
	Listed bool
}

// lotDay is a workspace's day of a GTIN, whose unlisted lots are bounded.
type lotDay struct {
	workspaceID int64
	day, gtin   string
}

// Tally counts scans in memory between writes to the store. It holds at
// most store.GS1UnlistedLots unlisted lots by name per workspace, day and
// GTIN, and counts the scans of others under store.GS1OtherLots, as the
// store does: scans of made-up lots (anyone may scan /01/{gtin}/10/{any})
// cannot grow it between writes, nor while the store cannot be reached
// and the counts are kept.
type Tally struct {
	mu       sync.Mutex
	counts   map[ScanKey]int64
	unlisted map[lotDay]map[string]bool // the unlisted lots held by name
}

// Add counts one scan.
func (t *Tally) Add(k ScanKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.add(k, 1)
}

// add counts n scans of k, under store.GS1OtherLots when k's lot is an
// unlisted one past the bound; t.mu is held.
func (t *Tally) add(k ScanKey, n int64) {
	if t.counts == nil {
		t.counts = map[ScanKey]int64{}
		t.unlisted = map[lotDay]map[string]bool{}
	}
	if k.Lot != "" && k.Lot != store.GS1OtherLots && !k.Listed {
		d := lotDay{k.WorkspaceID, k.Day, k.GTIN}
		lots := t.unlisted[d]
		switch {
		case lots[k.Lot]:
		case len(lots) >= store.GS1UnlistedLots:
			k.Lot = store.GS1OtherLots
		case lots == nil:
			t.unlisted[d] = map[string]bool{k.Lot: true}
		default:
			lots[k.Lot] = true
		}
	}
	t.counts[k] += n
}

// Take returns the counts so far and starts again from none.
func (t *Tally) Take() map[ScanKey]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts
	t.counts, t.unlisted = nil, nil
	return c
}

// Restore adds counts back (a write that failed), to go with the next,
// within the same bound as Add: the lots of c, counted first, keep their
// names before those counted since.
func (t *Tally) Restore(c map[ScanKey]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	since := t.counts
	t.counts, t.unlisted = nil, nil
	for _, m := range []map[ScanKey]int64{c, since} {
		for k, n := range m {
			t.add(k, n)
		}
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

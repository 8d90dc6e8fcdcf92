package gs1

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Scans reach the store when Run stops, added to what was there.
func TestScansSavedAtTheStop(t *testing.T) {
	st := storetest.Open(t)
	u := storetest.CreateUser(t, st, "scans@example.com")
	ws := storetest.Personal(t, st, u.ID)
	s := &Scans{Store: st}
	for range 2 {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		for range 3 {
			s.Add(ScanKey{WorkspaceID: ws, GTIN: "09506000134352", Lot: "L1", LinkType: DefaultLink, Day: "2026-11-29"})
		}
		stop()
		<-done
	}
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	got, err := st.GS1ScanCounts(context.Background(), ws, day, day, 10)
	if err != nil || len(got.Top) != 1 || got.Top[0].Scans != 6 || got.Top[0].Lot != "L1" {
		t.Fatalf("saved %+v, %v", got, err)
	}
}

// The tally holds at most store.GS1UnlistedLots unlisted lots by name per
// workspace, day and GTIN, counting the others' scans under
// store.GS1OtherLots; listed lots, scans without a lot and other days keep
// their own counts, and counts restored after a failed write stay within
// the bound.
func TestTallyBoundsUnlistedLots(t *testing.T) {
	var tally Tally
	key := func(day, lot string, listed bool) ScanKey {
		return ScanKey{WorkspaceID: 1, GTIN: "09506000134352", Lot: lot, LinkType: DefaultLink, Day: day, Listed: listed}
	}
	const made = 1_000
	for i := range made {
		tally.Add(key("2026-11-29", fmt.Sprint("X", i), false))
		tally.Add(key("2026-11-29", fmt.Sprint("X", i), false)) // each twice
		tally.Add(key("2026-11-29", fmt.Sprint("L", i%150), true))
	}
	tally.Add(key("2026-11-29", "", false))
	tally.Add(key("2026-11-30", "X999", false))
	check := func(c map[ScanKey]int64, what string, wantScans int64) {
		t.Helper()
		unlisted, listed := 0, 0
		var scans int64
		for k, n := range c {
			scans += n
			switch {
			case k.Day != "2026-11-29" || k.Lot == "" || k.Lot == store.GS1OtherLots:
			case k.Listed:
				listed++
			default:
				unlisted++
			}
		}
		if unlisted != store.GS1UnlistedLots || listed != 150 || scans != wantScans || c[key("2026-11-29", "X0", false)] != 2 ||
			c[key("2026-11-30", "X999", false)] != 1 || c[key("2026-11-29", "", false)] != 1 {
			t.Errorf("%s: %d unlisted lots by name, %d listed, %d scans (want %d), other lots %d", what, unlisted, listed, scans, wantScans,
				c[key("2026-11-29", store.GS1OtherLots, false)])
		}
	}
	c := tally.Take()
	check(c, "taken", 3*made+2)
	if len(c) > store.GS1UnlistedLots+150+3 {
		t.Errorf("%d keys", len(c))
	}
	// More made-up lots come in while the write fails; the counts go back.
	for i := range made {
		tally.Add(key("2026-11-29", fmt.Sprint("Y", i), false))
	}
	tally.Restore(c)
	check(tally.Take(), "restored", 4*made+2)
}

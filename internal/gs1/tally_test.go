package gs1

import (
	"context"
	"testing"
	"time"

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
	got, err := st.GS1ScanCounts(context.Background(), ws, day, day)
	if err != nil || len(got) != 1 || got[0].Scans != 6 || got[0].Lot != "L1" {
		t.Fatalf("saved %+v, %v", got, err)
	}
}

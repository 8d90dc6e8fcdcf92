package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// A batch the size the recorder writes under load, over more codes than
// one SQLite chunk: on PostgreSQL this is the COPY path.
func TestRecordScansLargeBatch(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "large@example.com")
		const codes, perCode = 600, 5
		ids := make([]int64, codes)
		for i := range ids {
			ids[i] = storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("large%04d", i)).ID
		}
		t0 := time.Date(2026, 6, 2, 9, 0, 0, 123456000, time.UTC)
		var events []store.ScanEvent
		for k := range perCode {
			for i, id := range ids {
				events = append(events, store.ScanEvent{CodeID: id, ScannedAt: t0.Add(time.Duration(k) * time.Minute),
					DeviceType: "mobile", OS: "Android", Browser: "Chrome", Referrer: "https://a.example",
					VisitorHash: fmt.Sprintf("%032x", i), IsBot: k == perCode-1 && i%2 == 0})
			}
		}
		sent := slices.Clone(events)
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		// SQLite stores them in the index's order, but the recorder tells
		// which scans a refused batch held by their order: it must keep it.
		if !slices.Equal(events, sent) {
			t.Error("RecordScans reordered the caller's events")
		}
		if n := storetest.Count(t, s, "scan_events"); n != codes*perCode {
			t.Fatalf("%d events stored, want %d", n, codes*perCode)
		}
		for _, i := range []int{0, 1, codes - 1} {
			d, err := s.DynamicCode(ctx, u.ID, ids[i])
			if err != nil {
				t.Fatal(err)
			}
			want, last := int64(perCode), t0.Add((perCode-1)*time.Minute)
			if i%2 == 0 { // its last scan was a bot's
				want, last = perCode-1, t0.Add((perCode-2)*time.Minute)
			}
			if d.ScanCount != want || d.LastScannedAt == nil || !d.LastScannedAt.Equal(last) {
				t.Errorf("code %d: count %d last %v, want %d at %v", i, d.ScanCount, d.LastScannedAt, want, last)
			}
		}
		var got []store.ScanEvent
		err := s.ScanEvents(ctx, u.ID, ids[1], func(e *store.ScanEvent) error { got = append(got, *e); return nil })
		if err != nil || len(got) != perCode {
			t.Fatalf("ScanEvents: %d, %v", len(got), err)
		}
		e := got[0]
		if !e.ScannedAt.Equal(t0) || e.DeviceType != "mobile" || e.OS != "Android" || e.Browser != "Chrome" ||
			e.Referrer != "https://a.example" || e.VisitorHash != fmt.Sprintf("%032x", 1) || e.IsBot {
			t.Errorf("stored event %+v", e)
		}
	})
}

// A batch that cannot be stored whole stores nothing: no events and no
// counts, so the recorder's retry does not count a scan twice.
func TestRecordScansIsAllOrNothing(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "atomic@example.com")
		d := storetest.CreateDynamic(t, s, u.ID, "atomic01")
		at := time.Date(2026, 6, 3, 9, 0, 0, 0, time.UTC)
		events := []store.ScanEvent{{CodeID: d.ID, ScannedAt: at}, {CodeID: d.ID + 1000, ScannedAt: at}}
		if err := s.RecordScans(ctx, events); err == nil {
			t.Fatal("a scan of an unknown code was stored")
		}
		if n := storetest.Count(t, s, "scan_events"); n != 0 {
			t.Errorf("%d events stored from a failed batch", n)
		}
		if got, _ := s.DynamicCode(ctx, u.ID, d.ID); got.ScanCount != 0 || got.LastScannedAt != nil {
			t.Errorf("count %d last %v after a failed batch", got.ScanCount, got.LastScannedAt)
		}
		// The connection is usable afterwards.
		if err := s.RecordScans(ctx, events[:1]); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.DynamicCode(ctx, u.ID, d.ID); got.ScanCount != 1 {
			t.Errorf("count %d after a good batch", got.ScanCount)
		}
	})
}

func TestScanBatchSize(t *testing.T) {
	if n := storetest.Open(t).ScanBatchSize(); n != 20000 {
		t.Errorf("SQLite batch %d", n)
	}
	if n := storetest.OpenPostgres(t).ScanBatchSize(); n != 1<<14 {
		t.Errorf("PostgreSQL batch %d", n)
	}
}

func TestRedirects(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "bulk@example.com")
		live := storetest.CreateDynamic(t, s, u.ID, "bulkLive")
		paused := storetest.CreateDynamic(t, s, u.ID, "bulkPaus")
		gone := storetest.CreateDynamic(t, s, u.ID, "bulkGone")
		now := time.Now()
		if _, err := s.SetDynamicPaused(ctx, u.ID, paused.ID, true, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeleteDynamicCode(ctx, u.ID, gone.ID, now); err != nil {
			t.Fatal(err)
		}
		got, err := s.Redirects(ctx, []string{"bulkLive", "bulkPaus", "bulkGone", "nosuch00", `x"]'`})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(got["bulkLive"]) != 1 || got["bulkLive"][0].ID != live.ID || got["bulkLive"][0].Destination != live.Destination ||
			got["bulkLive"][0].Paused || got["bulkPaus"][0].ID != paused.ID || !got["bulkPaus"][0].Paused {
			t.Errorf("Redirects = %+v", got)
		}
		if got, err := s.Redirects(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("no codes: %v, %v", got, err)
		}
		// A deleted owner's codes are not served.
		if err := s.SoftDeleteUser(ctx, u.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Redirects(ctx, []string{"bulkLive"}); err != nil || len(got) != 0 {
			t.Errorf("a deleted user's code: %v, %v", got, err)
		}
	})
}

package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Deleting old scan events (SQUARELY_SCAN_RETENTION_DAYS) leaves the
// views of their days as they were: whole UTC days from the rollups, and
// the part days at the ends of a range in another time zone from the
// rollups' quarter hours (scans and time series exact).
func TestDeleteScanEventsBefore(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "retention@example.com")
		codes := []*store.DynamicCode{storetest.CreateDynamic(t, s, u.ID, "keep-a"), storetest.CreateDynamic(t, s, u.ID, "keep-b")}
		open := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
		if err := store.SetOpenDay(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		// Scans over eight days, at hours that fall on either side of New
		// York's midnight, of both codes, humans and bots, several countries.
		var events []store.ScanEvent
		for day := -7; day <= 0; day++ {
			for i, hour := range []int{1, 3, 4, 5, 6, 13, 22, 23} {
				events = append(events, store.ScanEvent{
					CodeID: codes[i%2].ID, ScannedAt: open.AddDate(0, 0, day).Add(time.Duration(hour)*time.Hour + time.Duration(i*7)*time.Minute),
					DeviceType: []string{"mobile", "desktop"}[i%2], Country: []string{"US", "DE", "FR"}[i%3],
					VisitorHash: fmt.Sprintf("v%d", i%4), IsBot: i == 5, Browser: "Firefox", OS: "Linux",
				})
			}
		}
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		ws := storetest.Personal(t, s, u.ID)
		ny, err := time.LoadLocation("America/New_York")
		if err != nil {
			t.Fatal(err)
		}
		inNY := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, ny) }
		var queries []store.ScanQuery
		for _, codeID := range []int64{0, codes[0].ID} {
			for _, bots := range []bool{false, true} {
				queries = append(queries,
					store.ScanQuery{WorkspaceID: ws, CodeID: codeID, Bots: bots, From: open.AddDate(0, 0, -7), To: open.AddDate(0, 0, 1)},
					store.ScanQuery{WorkspaceID: ws, CodeID: codeID, Bots: bots, From: inNY(2026, 3, 3), To: inNY(2026, 3, 9)},
					store.ScanQuery{WorkspaceID: ws, CodeID: codeID, Bots: bots, From: inNY(2026, 3, 4), To: inNY(2026, 3, 11)})
			}
		}
		type view struct {
			report *store.ScanReport
			count  int64
		}
		read := func() []view {
			t.Helper()
			var out []view
			for _, q := range queries {
				r, err := s.ScanReport(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				n, err := s.ScanCount(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, view{r, n})
			}
			return out
		}
		before := read()
		eventsBefore := func(at time.Time) int64 {
			var n int64
			if err := store.ReadDB(s).QueryRowContext(ctx, `SELECT count(*) FROM scan_events WHERE scanned_at < $1`, at.UTC().Format("2006-01-02T15:04:05.000000Z")).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if from, err := s.EventsFrom(ctx); err != nil || !from.Equal(time.Unix(0, 0).UTC()) {
			t.Fatalf("events kept from %v %v before any deletion", from, err)
		}

		// Four days go, in bounded batches; the cutoff is a UTC day's start.
		cutoff := open.AddDate(0, 0, -3)
		old := eventsBefore(cutoff)
		if old != 4*8 {
			t.Fatalf("%d events before the cutoff", old)
		}
		n, err := s.DeleteScanEventsBefore(ctx, cutoff.Add(13*time.Hour), 10)
		if err != nil || n != 10 {
			t.Fatalf("first batch: %d, %v", n, err)
		}
		for n == 10 {
			if n, err = s.DeleteScanEventsBefore(ctx, cutoff.Add(13*time.Hour), 10); err != nil {
				t.Fatal(err)
			}
		}
		if left := eventsBefore(cutoff); left != 0 || eventsBefore(open.AddDate(0, 0, 1)) != 8*8-old {
			t.Fatalf("after deleting: %d old events left, %d in all", left, eventsBefore(open.AddDate(0, 0, 1)))
		}
		if from, err := s.EventsFrom(ctx); err != nil || !from.Equal(cutoff) {
			t.Fatalf("events kept from %v %v, want %v", from, err, cutoff)
		}

		after := read()
		for i, q := range queries {
			b, a := before[i], after[i]
			if a.count != b.count || a.report.Scans != b.report.Scans || a.report.BotScans != b.report.BotScans ||
				!reflect.DeepEqual(a.report.Slots, b.report.Slots) {
				t.Errorf("%+v: scans %d/%d bots %d/%d count %d/%d slots\n%v\n%v", q, a.report.Scans, b.report.Scans,
					a.report.BotScans, b.report.BotScans, a.count, b.count, a.report.Slots, b.report.Slots)
			}
			// A range of whole UTC days is unchanged in every respect.
			if q.From.Location() == time.UTC && !reflect.DeepEqual(a.report, b.report) {
				t.Errorf("%+v: UTC days changed:\n%+v\n%+v", q, a.report, b.report)
			}
		}

		// Never into the open day, whose code rows are counted from its events.
		if _, err := s.DeleteScanEventsBefore(ctx, open.AddDate(1, 0, 0), 1000); err != nil {
			t.Fatal(err)
		}
		if from, _ := s.EventsFrom(ctx); !from.Equal(open) || eventsBefore(open.AddDate(0, 0, 1)) != 8 {
			t.Fatalf("deleting past the open day: kept from %v, %d events left", from, eventsBefore(open.AddDate(0, 0, 1)))
		}
		// The retention only moves forward.
		if _, err := s.DeleteScanEventsBefore(ctx, cutoff, 1000); err != nil {
			t.Fatal(err)
		}
		if from, _ := s.EventsFrom(ctx); !from.Equal(open) {
			t.Fatalf("retention moved back to %v", from)
		}
		if n, err := s.CloseScanDays(ctx, open.AddDate(0, 0, 1).Add(store.CloseGrace)); err != nil || n != 1 {
			t.Fatalf("closing the open day: %d, %v", n, err)
		}
		for i, v := range read() {
			if v.report.Scans != before[i].report.Scans || !reflect.DeepEqual(v.report.Slots, before[i].report.Slots) {
				t.Errorf("%+v after closing: %d scans, want %d", queries[i], v.report.Scans, before[i].report.Scans)
			}
		}
	})
}

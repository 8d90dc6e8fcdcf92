package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/bulkedit"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestCountryDays follows a workspace's views of one country as its
// closed days go into the country rows: they answer as a recount of the
// scan events throughout, before the days close, once they are closed and
// counted back to the first scan (when none of a range of whole closed
// days is read from the events), and after late scans, a deletion and a
// move, whose days are read from the events until the recorder's tick
// counts them again; an undone deletion writes the code's rows of the
// days closed without it.
func TestCountryDays(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 62))
		alice := storetest.CreateUser(t, s, "alice@example.com")
		ws := storetest.Personal(t, s, alice.ID)
		var codes []*store.DynamicCode
		for i := range 4 {
			codes = append(codes, storetest.CreateDynamic(t, s, alice.ID, fmt.Sprintf("cty%04d", i)))
		}
		bob := storetest.CreateUser(t, s, "bob@example.com")
		bobs := storetest.Personal(t, s, bob.ID)
		bobCode := storetest.CreateDynamic(t, s, bob.ID, "bob0")

		open := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
		if err := store.SetOpenDay(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		if err := store.SetCountryDaysFrom(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		first := open.AddDate(0, 0, -6)
		pick := func(options ...string) string { return options[rng.IntN(len(options))] }
		// record saves n scans of codes over the days from start, in
		// batches, visitors repeating across codes (and so across a
		// workspace's codes in a country: a visitor is one address's).
		record := func(start time.Time, days, n int, codes ...*store.DynamicCode) {
			t.Helper()
			for left := n; left > 0; left -= 100 {
				events := make([]store.ScanEvent, min(left, 100))
				for i := range events {
					visitor := rng.IntN(40)
					events[i] = store.ScanEvent{
						CodeID:      codes[rng.IntN(len(codes))].ID,
						ScannedAt:   start.Add(time.Duration(rng.Int64N(int64(days) * int64(24*time.Hour)))),
						DeviceType:  pick("mobile", "desktop", ""),
						OS:          pick("iOS", "Android", ""),
						Browser:     pick("Safari", "Chrome"),
						Referrer:    pick("", "https://a.example", "https://b.example"),
						VisitorHash: fmt.Sprintf("v%d", visitor),
						Country:     []string{"DE", "US", "NP", ""}[visitor%4],
						Route:       pick("", store.RouteDefault, "rule:0"),
						IsBot:       visitor < 4,
					}
				}
				if err := s.RecordScans(ctx, events); err != nil {
					t.Fatal(err)
				}
			}
		}
		record(first, 9, 1500, codes...)
		record(first, 9, 200, bobCode)

		newYork, err := time.LoadLocation("America/New_York")
		if err != nil {
			t.Fatal(err)
		}
		// check compares workspace w's views of each country with recounts:
		// whole UTC days, a day, local days in New York (their ends inside
		// UTC days), with bots and without.
		check := func(t *testing.T, w int64) {
			t.Helper()
			local := time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, newYork)
			for _, r := range [][2]time.Time{
				{first.AddDate(0, 0, -3), open.AddDate(0, 0, 5)},
				{open.AddDate(0, 0, -2), open.AddDate(0, 0, -1)},
				{local, local.AddDate(0, 0, 8)},
				{local.AddDate(0, 0, 5), local.AddDate(0, 0, 7)},
			} {
				for _, bots := range []bool{false, true} {
					q := store.ScanQuery{WorkspaceID: w, From: r[0], To: r[1], Bots: bots}
					all := checkRecount(t, s, q)
					for _, country := range []string{"DE", "US", "NP", "", "FR"} {
						checkCountryView(t, s, q, all, country)
					}
				}
			}
		}
		// fromEvents is how many scans a view of DE over the whole closed
		// days reads from the events.
		fromEvents := func(t *testing.T, w int64) int64 {
			t.Helper()
			n, err := s.CountryEventScans(ctx, store.ScanQuery{WorkspaceID: w, From: first, To: open.AddDate(0, 0, 3), ByCountry: true, Country: "DE"})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		catchUp := func(t *testing.T) {
			t.Helper()
			if done, err := s.CatchUpCountryDays(ctx, time.Now().Add(time.Minute)); err != nil || !done {
				t.Fatalf("caught up: %v, %v", done, err)
			}
		}

		t.Run("open days", func(t *testing.T) {
			if n := fromEvents(t, ws); n != 1500 {
				t.Fatalf("%d scans read from the events, want all 1500", n)
			}
			check(t, ws)
		})
		t.Run("closed and counted back", func(t *testing.T) {
			if n, err := s.CloseScanDays(ctx, open.AddDate(0, 0, 3).Add(store.CloseGrace)); err != nil || n != 3 {
				t.Fatalf("closed %d days, %v; want 3", n, err)
			}
			catchUp(t)
			if from, err := store.CountryDaysFrom(ctx, s); err != nil || !from.Equal(first) {
				t.Fatalf("country rows from %v, %v; want the first scan's day %v", from, err, first)
			}
			if n := fromEvents(t, ws); n != 0 {
				t.Fatalf("%d scans read from the events, want none", n)
			}
			check(t, ws)
		})
		t.Run("scans older than the first", func(t *testing.T) {
			// As an import of earlier scans would save them: the tick
			// counts back to their day too.
			first = first.AddDate(0, 0, -2)
			record(first, 1, 40, codes...)
			catchUp(t)
			if from, err := store.CountryDaysFrom(ctx, s); err != nil || !from.Equal(first) {
				t.Fatalf("country rows from %v, %v; want the older scans' day %v", from, err, first)
			}
			if n := fromEvents(t, ws); n != 0 {
				t.Fatalf("%d scans read from the events, want none", n)
			}
			check(t, ws)
		})
		// recounted checks workspaces after a change to their closed days:
		// those days are read from the events (why, when they are not) until
		// the tick counts them again, and the views answer as recounts
		// throughout.
		recounted := func(t *testing.T, why string, workspaces ...int64) {
			t.Helper()
			for _, w := range workspaces {
				if n := fromEvents(t, w); n == 0 {
					t.Fatalf("workspace %d: %s", w, why)
				}
				check(t, w)
			}
			catchUp(t)
			for _, w := range workspaces {
				if n := fromEvents(t, w); n != 0 {
					t.Fatalf("workspace %d: %d scans read from the events after the tick, want none", w, n)
				}
				check(t, w)
			}
		}
		t.Run("late scans", func(t *testing.T) {
			record(open.AddDate(0, 0, 1), 1, 60, codes...)
			recounted(t, "the late scans' day is read from its rows, which lack them", ws)
		})
		t.Run("a deletion", func(t *testing.T) {
			if _, err := s.DeleteDynamicCode(ctx, alice.ID, codes[0].ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			recounted(t, "the deleted code's days are read from rows that count it", ws)
		})
		t.Run("a move", func(t *testing.T) {
			r := bulkedit.NewRunner(s, nil, nil)
			j, err := r.StartMove(ctx, ws, bobs, alice.ID, []store.CodeRef{{Dynamic: true, ID: codes[1].ID}}, 0)
			if err != nil || j.Status != store.BulkEditDone || j.Processed != 1 {
				t.Fatalf("move: %+v, %v", j, err)
			}
			recounted(t, "the moved code's days are read from rows that do not follow it", ws, bobs)
		})
		t.Run("an undone deletion", func(t *testing.T) {
			// Scans on the open day, a bulk deletion, the day closed
			// without the code, then the deletion undone.
			day := open.AddDate(0, 0, 3)
			record(day, 1, 300, codes[2:]...)
			r := bulkedit.NewRunner(s, nil, nil)
			j, err := r.Start(ctx, ws, alice.ID, []store.CodeRef{{Dynamic: true, ID: codes[2].ID}}, bulkedit.Changes{Delete: true})
			if err != nil {
				t.Fatal(err)
			}
			r.Pass(ctx)
			// Deleted that day, on the test's calendar.
			storetest.QueryRow(t, s, `UPDATE dynamic_qr_codes SET deleted_at = $1 WHERE id = $2 RETURNING id`,
				[]any{day.Add(12 * time.Hour).Format(time.RFC3339Nano), codes[2].ID}, new(int64))
			if n, err := s.CloseScanDays(ctx, day.AddDate(0, 0, 1).Add(store.CloseGrace)); err != nil || n != 1 {
				t.Fatalf("closed %d days, %v; want 1", n, err)
			}
			if restored, _, err := r.Undo(ctx, ws, j.ID, 0); err != nil || restored != 1 {
				t.Fatalf("undo: %d restored, %v", restored, err)
			}
			// The code's own rows hold the day closed without it.
			for _, bots := range []bool{false, true} {
				q := store.ScanQuery{WorkspaceID: ws, CodeID: codes[2].ID, From: day, To: day.AddDate(0, 0, 1), Bots: bots}
				if all := checkRecount(t, s, q); all.Scans == 0 {
					t.Fatalf("%+v: no scans to compare", q)
				}
			}
			check(t, ws)
			catchUp(t)
			check(t, ws)
		})
	})
}

// The country rows are counted back to the oldest kept scan, not beyond:
// retention has deleted the events of the days before it.
func TestCountryDaysStopAtRetention(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "kept@example.com")
		ws := storetest.Personal(t, s, u.ID)
		code := storetest.CreateDynamic(t, s, u.ID, "kept")
		open := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
		if err := store.SetOpenDay(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		if err := store.SetCountryDaysFrom(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		var events []store.ScanEvent
		for d := range 5 {
			for i := range 3 {
				events = append(events, store.ScanEvent{CodeID: code.ID, ScannedAt: open.AddDate(0, 0, d-5).Add(time.Duration(i) * time.Hour),
					DeviceType: "mobile", Country: "DE", VisitorHash: fmt.Sprint(i)})
			}
		}
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		kept := open.AddDate(0, 0, -2)
		if _, err := s.DeleteScanEventsBefore(ctx, kept, 1000); err != nil {
			t.Fatal(err)
		}
		if done, err := s.CatchUpCountryDays(ctx, time.Now().Add(time.Minute)); err != nil || !done {
			t.Fatalf("caught up: %v, %v", done, err)
		}
		if from, err := store.CountryDaysFrom(ctx, s); err != nil || !from.Equal(kept) {
			t.Fatalf("country rows from %v, %v; want the oldest kept day %v", from, err, kept)
		}
		q := store.ScanQuery{WorkspaceID: ws, From: kept, To: open}
		all := checkRecount(t, s, q)
		checkCountryView(t, s, q, all, "DE")
		if all.Scans != 6 {
			t.Fatalf("%d scans in the kept days, want 6", all.Scans)
		}
	})
}

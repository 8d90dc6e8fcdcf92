package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestCountryRollups follows a code's, a tag's and a folder's views of one
// country as their rows by country are built, extended and summed again:
// they answer as a recount of the scan events throughout (whole UTC days,
// local days, bots or not), read none of a range's whole closed days from
// the events once built, and follow days closing, earlier ranges, a code
// joining the tag, late scans, a deletion, a move out of the workspace and
// the tag's deletion, which takes its rows with it.
func TestCountryRollups(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 63))
		u := storetest.CreateUser(t, s, "countries@example.com")
		ws := storetest.Personal(t, s, u.ID)
		other := storetest.CreateUser(t, s, "elsewhere@example.com")
		otherWS := storetest.Personal(t, s, other.ID)
		var codes []*store.DynamicCode
		for i := range 5 {
			codes = append(codes, storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("ctry%d", i)))
		}
		tag, folder := &store.Tag{Name: "Posters", Color: "#2563eb"}, &store.Folder{Name: "Spring"}
		if err := s.CreateTag(ctx, ws, tag, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateFolder(ctx, ws, folder, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, c := range codes[:3] {
			if err := s.SetCodeTags(ctx, ws, true, c.ID, []int64{tag.ID}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range codes[2:4] {
			if err := s.SetCodeFolder(ctx, ws, true, c.ID, &folder.ID); err != nil {
				t.Fatal(err)
			}
		}
		open := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
		if err := store.SetOpenDay(ctx, s, open); err != nil {
			t.Fatal(err)
		}
		pick := func(options ...string) string { return options[rng.IntN(len(options))] }
		record := func(start time.Time, days, n int, codes ...*store.DynamicCode) {
			t.Helper()
			events := make([]store.ScanEvent, n)
			for i := range events {
				visitor := rng.IntN(30)
				events[i] = store.ScanEvent{
					CodeID:      codes[rng.IntN(len(codes))].ID,
					ScannedAt:   start.Add(time.Duration(rng.Int64N(int64(days) * int64(24*time.Hour)))),
					DeviceType:  pick("mobile", "desktop"),
					Browser:     pick("Safari", "Chrome"),
					Referrer:    pick("", "https://a.example"),
					VisitorHash: fmt.Sprintf("v%d", visitor),
					Country:     []string{"DE", "US", ""}[visitor%3],
					Route:       pick("", "rule:0"),
					IsBot:       visitor < 3,
				}
			}
			if err := s.RecordScans(ctx, events); err != nil {
				t.Fatal(err)
			}
		}
		first := open.AddDate(0, 0, -8)
		record(first, 10, 900, codes...)

		zone, err := time.LoadLocation("America/Los_Angeles")
		if err != nil {
			t.Fatal(err)
		}
		scopes := func() []store.ScanQuery {
			return []store.ScanQuery{{WorkspaceID: ws, CodeID: codes[1].ID}, {WorkspaceID: ws, TagID: tag.ID}, {WorkspaceID: ws, FolderID: folder.ID}}
		}
		// check compares each scope's views of each country over r with
		// recounts.
		check := func(t *testing.T, r [2]time.Time) {
			t.Helper()
			for _, q := range scopes() {
				for _, bots := range []bool{false, true} {
					q.From, q.To, q.Bots = r[0], r[1], bots
					all := checkRecount(t, s, q)
					for _, country := range []string{"DE", "US", "", "FR"} {
						checkCountryView(t, s, q, all, country)
					}
				}
			}
		}
		recent := [2]time.Time{open.AddDate(0, 0, -4), open}
		local := [2]time.Time{time.Date(2026, 10, 15, 0, 0, 0, 0, zone), time.Date(2026, 10, 21, 0, 0, 0, 0, zone)}
		// fromEvents is how many scans a scope's view of DE over r reads
		// from the events, or would read to build its rows.
		fromEvents := func(t *testing.T, q store.ScanQuery, r [2]time.Time) int64 {
			t.Helper()
			q.From, q.To, q.ByCountry, q.Country = r[0], r[1], true, "DE"
			n, err := s.CountryEventScans(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		// built checks that the scopes' views of DE over r read nothing
		// from the events, having read something (why) before.
		built := func(t *testing.T, why string, r [2]time.Time, check func()) {
			t.Helper()
			for _, q := range scopes() {
				if fromEvents(t, q, r) == 0 {
					t.Fatalf("%+v: %s", q, why)
				}
			}
			check()
			for _, q := range scopes() {
				if n := fromEvents(t, q, r); n != 0 {
					t.Fatalf("%+v over %v: %d scans read from the events once built, want none", q, r, n)
				}
			}
		}

		t.Run("built", func(t *testing.T) {
			built(t, "no rows yet, so all is read from the events", recent, func() { check(t, recent) })
			check(t, local)
		})
		t.Run("earlier days", func(t *testing.T) {
			earlier := [2]time.Time{first, open.AddDate(0, 0, -4)}
			built(t, "the rows start later", earlier, func() { check(t, earlier) })
			check(t, [2]time.Time{first, open.AddDate(0, 0, 2)})
		})
		t.Run("days closed", func(t *testing.T) {
			if n, err := s.CloseScanDays(ctx, open.AddDate(0, 0, 2).Add(store.CloseGrace)); err != nil || n != 2 {
				t.Fatalf("closed %d days, %v; want 2", n, err)
			}
			r := [2]time.Time{first, open.AddDate(0, 0, 2)}
			built(t, "the days closed since are not in the rows", r, func() { check(t, r) })
		})
		t.Run("a code joins the tag", func(t *testing.T) {
			if err := s.SetCodeTags(ctx, ws, true, codes[4].ID, []int64{tag.ID}); err != nil {
				t.Fatal(err)
			}
			check(t, recent)
			check(t, local)
		})
		t.Run("late scans", func(t *testing.T) {
			record(open.AddDate(0, 0, -3), 1, 60, codes...)
			check(t, recent)
			check(t, local)
		})
		t.Run("a deletion", func(t *testing.T) {
			if _, err := s.DeleteDynamicCode(ctx, ws, codes[2].ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			check(t, recent)
		})
		t.Run("another workspace", func(t *testing.T) {
			for _, q := range scopes() {
				q.WorkspaceID, q.From, q.To, q.Bots, q.ByCountry, q.Country = otherWS, first, open, true, true, "DE"
				if r, err := s.ScanReport(ctx, q); err == nil && r.Scans+r.BotScans != 0 {
					t.Fatalf("another workspace reads %+v: %+v", q, r)
				}
			}
		})
		t.Run("views at once", func(t *testing.T) {
			// A code leaves the folder and another joins; views of it at
			// once, from cold over two ranges, then again once another day
			// has closed, all answer as the recount, and leave one rollup.
			if err := s.SetCodeFolder(ctx, ws, true, codes[3].ID, nil); err != nil {
				t.Fatal(err)
			}
			if err := s.SetCodeFolder(ctx, ws, true, codes[0].ID, &folder.ID); err != nil {
				t.Fatal(err)
			}
			burst := func(t *testing.T) {
				t.Helper()
				var wg sync.WaitGroup
				for i := range 8 {
					q := store.ScanQuery{WorkspaceID: ws, FolderID: folder.ID, From: first.AddDate(0, 0, i%2*4), To: open.AddDate(0, 0, 4), ByCountry: true, Country: "US"}
					want, err := store.RecountReport(ctx, s, q)
					if err != nil {
						t.Fatal(err)
					}
					wg.Go(func() {
						got, err := s.ScanReport(ctx, q)
						if err != nil || got.Scans != want.Scans || got.UniqueVisitors != want.UniqueVisitors {
							t.Errorf("%+v at once: %+v, %v; want %d scans", q, got, err, want.Scans)
						}
					})
				}
				wg.Wait()
			}
			burst(t)
			record(open.AddDate(0, 0, 2), 1, 200, codes[0], codes[2])
			if n, err := s.CloseScanDays(ctx, open.AddDate(0, 0, 3).Add(store.CloseGrace)); err != nil || n != 1 {
				t.Fatalf("closed %d days, %v; want 1", n, err)
			}
			burst(t)
			var n int
			storetest.QueryRow(t, s, `SELECT count(*) FROM scan_country_rollups WHERE folder_id = $1 AND country = 'US'`, []any{folder.ID}, &n)
			if n != 1 {
				t.Fatalf("%d rollups of the folder in US, want 1", n)
			}
		})
		t.Run("the tag deleted", func(t *testing.T) {
			var before int
			storetest.QueryRow(t, s, `SELECT count(*) FROM scan_country_rollup_days d JOIN scan_country_rollups r ON r.id = d.rollup_id WHERE r.tag_id = $1`, []any{tag.ID}, &before)
			if before == 0 {
				t.Fatal("the tag has no rows by country to delete")
			}
			if err := s.DeleteTag(ctx, ws, tag.ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			var rollups, days int
			storetest.QueryRow(t, s, `SELECT (SELECT count(*) FROM scan_country_rollups WHERE tag_id = $1),
				(SELECT count(*) FROM scan_country_rollup_days WHERE rollup_id NOT IN (SELECT id FROM scan_country_rollups))`, []any{tag.ID}, &rollups, &days)
			if rollups != 0 || days != 0 {
				t.Fatalf("after the tag's deletion: %d rollups, %d orphan rows", rollups, days)
			}
		})
	})
}

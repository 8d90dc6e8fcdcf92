package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestQuarterEdgesEqualEvents reads the part days at the ends of local
// days, in zones whose days start on the hour, the half and the three
// quarters, from the workspace's quarter rows and from the scan events:
// the two must agree to the visitor, with bots and without, also after a
// code's deletion, whose days are rebuilt from the events on first view.
func TestQuarterEdgesEqualEvents(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 37))
		alice := storetest.CreateUser(t, s, "alice@example.com")
		ws := storetest.Personal(t, s, alice.ID)
		var codes []*store.DynamicCode
		for i := range 4 {
			codes = append(codes, storetest.CreateDynamic(t, s, alice.ID, fmt.Sprintf("qtr%04d", i)))
		}
		pick := func(options ...string) string { return options[rng.IntN(len(options))] }
		// record saves n scans of the live codes over the days from start,
		// in batches, visitors repeating across codes and quarters.
		record := func(start time.Time, days, n int, live []*store.DynamicCode) {
			for left := n; left > 0; left -= 100 {
				events := make([]store.ScanEvent, min(left, 100))
				for i := range events {
					hash := fmt.Sprintf("v%d", rng.IntN(30))
					events[i] = store.ScanEvent{
						CodeID:      live[rng.IntN(len(live))].ID,
						ScannedAt:   start.Add(time.Duration(rng.Int64N(int64(days) * int64(24*time.Hour)))),
						DeviceType:  pick("mobile", "desktop", ""),
						OS:          pick("iOS", "Android", ""),
						Browser:     pick("Safari", "Chrome", ""),
						Referrer:    pick("", "https://a.example", "https://b.example"),
						VisitorHash: pick(hash, hash, ""),
						Country:     pick("DE", "US", "NP", ""),
						Route:       pick("", store.RouteDefault, "rule:0", "split:1"),
					}
					if h := events[i].VisitorHash; h != "" && h < "v2" {
						events[i].IsBot, events[i].DeviceType = true, "bot"
					}
				}
				if err := s.RecordScans(ctx, events); err != nil {
					t.Fatal(err)
				}
			}
		}
		var zones []*time.Location
		for _, name := range []string{"America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide"} {
			loc, err := time.LoadLocation(name)
			if err != nil {
				t.Fatal(err)
			}
			zones = append(zones, loc)
		}
		// edges are the part days at the local midnights within the UTC
		// days from start: each midnight ends one and starts the next.
		edges := func(start time.Time) []store.ScanQuery {
			var list []store.ScanQuery
			for d := range 3 {
				day := start.AddDate(0, 0, d)
				for _, loc := range zones {
					l := day.In(loc)
					midnight := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, 1)
					if !midnight.Before(day.AddDate(0, 0, 1)) {
						midnight = midnight.AddDate(0, 0, -1)
					}
					for _, part := range [][2]time.Time{{day, midnight}, {midnight, day.AddDate(0, 0, 1)}} {
						list = append(list, store.ScanQuery{WorkspaceID: ws, From: part[0], To: part[1], Bots: rng.IntN(2) == 0})
					}
				}
			}
			return list
		}
		// check compares the edges of the three days from start; answers
		// says which of the days the quarters must answer for.
		check := func(t *testing.T, start time.Time, answers func(day int) bool) {
			t.Helper()
			for _, e := range edges(start) {
				got, ok, err := store.QuarterEdge(ctx, s, e)
				if err != nil {
					t.Fatal(err)
				}
				if want := answers(int(e.From.Sub(start) / (24 * time.Hour))); ok != want {
					t.Fatalf("%v to %v: answered %v, want %v", e.From, e.To, ok, want)
				}
				if !ok {
					continue
				}
				want, err := store.EventsEdge(ctx, s, e)
				if err != nil {
					t.Fatal(err)
				}
				if want.Scans == 0 && want.BotScans == 0 {
					t.Fatalf("%v to %v: no scans to compare", e.From, e.To)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%v to %v, bots %v:\nquarters %+v\nevents   %+v", e.From, e.To, e.Bots, got, want)
				}
			}
		}

		all := func(int) bool { return true }
		march := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
		record(march, 3, 1500, codes[1:])
		record(march, 1, 200, codes[:1]) // the code deleted below: its first day only
		t.Run("recorded", func(t *testing.T) { check(t, march, all) })

		// A part day that neither starts nor ends its UTC day is the events'.
		middle := store.ScanQuery{WorkspaceID: ws, From: march.Add(time.Hour), To: march.Add(2 * time.Hour)}
		if _, ok, err := store.QuarterEdge(ctx, s, middle); ok || err != nil {
			t.Fatalf("a middle part answered from quarters: %v, %v", ok, err)
		}

		// A deletion takes the code's scans out of the days, not out of the
		// visitors' quarters: the day it was scanned on is marked stale, and
		// its first view rebuilds that day's quarters from the events, after
		// which they answer exactly again, as the other days' do throughout.
		if _, err := s.DeleteDynamicCode(ctx, alice.ID, codes[0].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		staleDays := func() (n int) {
			t.Helper()
			err := store.ReadDB(s).QueryRowContext(ctx, `SELECT count(*) FROM scan_workspace_stale_days WHERE workspace_id = $1`, ws).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := staleDays(); n != 1 {
			t.Fatalf("%d stale days after the deletion, want the one it was scanned on", n)
		}
		t.Run("after a deletion", func(t *testing.T) { check(t, march, all) })
		if n := staleDays(); n != 0 {
			t.Fatalf("%d stale days after their views, want none", n)
		}
		later := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 2)
		record(later, 3, 1500, codes[1:])
		t.Run("scans after a deletion", func(t *testing.T) { check(t, later, all) })
	})
}

// Migration 0058 dates the quarters of the workspaces it finds: their part
// days before it come from the events (their visitors have no quarters),
// those after from the quarter rows; a workspace made after has them all.
func TestWorkspaceQuartersMigration(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			ctx := context.Background()
			url, dir := "", t.TempDir()
			if db == "postgres" {
				url = storetest.PostgresURL(t)
			}
			old, err := store.OpenUpTo(ctx, url, dir, 57)
			if err != nil {
				t.Fatal(err)
			}
			var uid, ws int64
			w := store.WriteDB(old)
			if err := w.QueryRow(`INSERT INTO users (username, email) VALUES ('alice@example.com', 'alice@example.com') RETURNING id`).Scan(&uid); err != nil {
				t.Fatal(err)
			}
			if err := w.QueryRow(`INSERT INTO workspaces (name, personal_user_id) VALUES ('Personal', $1) RETURNING id`, uid).Scan(&ws); err != nil {
				t.Fatal(err)
			}
			old.Close()
			migrated := time.Now()

			s, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			bob := storetest.CreateUser(t, s, "bob@example.com")
			for _, tc := range []struct {
				ws      int64
				at      time.Time
				answers bool
			}{
				{ws, migrated.Add(-48 * time.Hour), false},
				{ws, migrated.Add(48 * time.Hour), true},
				{storetest.Personal(t, s, bob.ID), migrated.Add(-48 * time.Hour), true},
			} {
				day := tc.at.UTC().Truncate(24 * time.Hour)
				e := store.ScanQuery{WorkspaceID: tc.ws, From: day.Add(5 * time.Hour), To: day.AddDate(0, 0, 1)}
				if _, ok, err := store.QuarterEdge(ctx, s, e); ok != tc.answers || err != nil {
					t.Errorf("workspace %d, %v: answered %v (%v), want %v", tc.ws, e.From, ok, err, tc.answers)
				}
			}
		})
	}
}

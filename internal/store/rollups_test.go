package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// TestRollupsEqualRecount records random batches of scans, some at once,
// over days of which the later half are open (their code rows not written
// yet), deletes a code halfway, and checks that every view read through
// the rollups equals a recount of the scan events: any range, time zone,
// code, tag, folder or account (a share link's too), with and without
// bots, and the ranges bench/analytics times (the last 7 and 90 days and
// all time). Then it closes some days while
// more batches are recorded, deletes another code, and checks again; then
// that rebuilding the rollups from the events (migration 0014's step)
// gives them back, and closing the remaining days keeps them.
func TestRollupsEqualRecount(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 15))

		alice := storetest.CreateUser(t, s, "alice@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		var codes []*store.DynamicCode
		for i := range 8 {
			owner := alice.ID
			if i >= 6 {
				owner = bob.ID
			}
			codes = append(codes, storetest.CreateDynamic(t, s, owner, fmt.Sprintf("roll%04d", i)))
		}
		// A tag on three codes and a folder of three of Alice's, each with
		// a code deleted below and changed after the first checks.
		ws := storetest.Personal(t, s, alice.ID)
		tag, folder := &store.Tag{Name: "Posters", Color: "#2563eb"}, &store.Folder{Name: "Spring"}
		if err := s.CreateTag(ctx, ws, tag, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateFolder(ctx, ws, folder, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 2, 4} {
			if err := s.SetCodeTags(ctx, ws, true, codes[i].ID, []int64{tag.ID}); err != nil {
				t.Fatal(err)
			}
		}
		for _, i := range []int{1, 3, 5} {
			if err := s.SetCodeFolder(ctx, ws, true, codes[i].ID, &folder.ID); err != nil {
				t.Fatal(err)
			}
		}
		// The share page reads its link's scope as the app's view does.
		token := "rollups-share-token"
		share := &store.ShareLink{WorkspaceID: ws, TokenHash: token, TokenHint: "rollup", FolderID: folder.ID}
		if err := s.CreateShareLink(ctx, share, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		shared, err := s.ShareLinkByToken(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		// Around a month end and Europe's and Australia's clock changes.
		start := time.Date(2026, 3, 26, 0, 0, 0, 0, time.UTC)
		pick := func(options ...string) string { return options[rng.IntN(len(options))] }
		// A batch scans one of three sets of codes, two of them Alice's, so
		// that concurrent batches of one user meet at no code row.
		batch := func(n, set int) []store.ScanEvent {
			from := [][]*store.DynamicCode{codes[:3], codes[3:6], codes[6:]}[set]
			events := make([]store.ScanEvent, n)
			for i := range events {
				hash := fmt.Sprintf("v%d", rng.IntN(40)) // repeats across codes and days
				events[i] = store.ScanEvent{
					CodeID:      from[rng.IntN(len(from))].ID,
					ScannedAt:   start.Add(time.Duration(rng.Int64N(int64(12 * 24 * time.Hour)))),
					DeviceType:  pick("mobile", "desktop", "tablet", ""),
					OS:          pick("iOS", "Android", "Windows", ""),
					Browser:     pick("Safari", "Chrome", ""),
					Referrer:    pick("", "", "https://a.example", "https://b.example", "https://c.example"),
					VisitorHash: pick(hash, hash, hash, ""),
					Country:     pick("DE", "US", "NP", "AU", ""),
					Route:       pick("", store.RouteDefault, "rule:0", "rule:3", "split:1", store.RouteEnded),
				}
				// The hash covers the user agent, which decides a bot.
				if h := events[i].VisitorHash; h != "" && h < "v2" {
					events[i].IsBot, events[i].DeviceType = true, "bot"
				}
			}
			return events
		}
		if err := store.SetOpenDay(ctx, s, start.AddDate(0, 0, 6)); err != nil {
			t.Fatal(err)
		}
		// record saves batches at once, and closes the days that have ended
		// by closeAt alongside them.
		record := func(batches int, closeAt time.Time) {
			var wg sync.WaitGroup
			errs := make(chan error, batches+1)
			for i := range batches {
				events := batch(1+rng.IntN(300), i%3)
				wg.Go(func() { errs <- s.RecordScans(ctx, events) })
			}
			if !closeAt.IsZero() {
				wg.Go(func() {
					_, err := s.CloseScanDays(ctx, closeAt)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
		}

		record(12, time.Time{})
		if _, err := s.DeleteDynamicCode(ctx, alice.ID, codes[1].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		record(12, time.Time{}) // with scans of the deleted code, which count nowhere

		var zones []*time.Location
		for _, name := range []string{"UTC", "America/New_York", "Asia/Kathmandu", "Australia/Adelaide"} {
			loc, err := time.LoadLocation(name)
			if err != nil {
				t.Fatal(err)
			}
			zones = append(zones, loc)
		}
		check := func(t *testing.T) {
			t.Helper()
			views := []store.ScanQuery{{WorkspaceID: alice.ID}, {WorkspaceID: bob.ID}, {WorkspaceID: alice.ID, CodeID: codes[0].ID}, {WorkspaceID: bob.ID, CodeID: codes[7].ID},
				{WorkspaceID: ws, TagID: tag.ID}, shared.Query()}
			for _, v := range views {
				for _, loc := range zones {
					// The bench's ranges: the last 7 and 90 local days up to a
					// day within the scans, and all time from the first scan's day.
					end := time.Date(2026, 3, 26+rng.IntN(13), 0, 0, 0, 0, loc)
					first, _, err := s.FirstScan(ctx, v)
					if err != nil {
						t.Fatal(err)
					}
					f := first.In(loc)
					for _, from := range []time.Time{end.AddDate(0, 0, -6), end.AddDate(0, 0, -89), time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, loc)} {
						q := v
						q.From, q.To = from, end.AddDate(0, 0, 1)
						want := checkRecount(t, s, q)
						if n, err := s.ScanCount(ctx, q); err != nil || n != want.Scans {
							t.Fatalf("%+v: count %d, %v; recount %d", q, n, err, want.Scans)
						}
					}
					for range 6 {
						q := v
						from := time.Date(2026, 3, 24+rng.IntN(12), 0, 0, 0, 0, loc)
						q.From, q.To = from, from.AddDate(0, 0, 1+rng.IntN(8))
						if rng.IntN(4) == 0 { // a 24-hour period ending on the hour
							q.To = from.Add(time.Duration(rng.IntN(24*10)) * time.Hour)
							q.From = q.To.Add(-24 * time.Hour)
						}
						q.Bots = rng.IntN(2) == 0
						want := checkRecount(t, s, q)
						n, err := s.ScanCount(ctx, q)
						if err != nil || n != want.Scans {
							t.Fatalf("%+v: count %d, %v; recount %d", q, n, err, want.Scans)
						}
						checkCountryView(t, s, q, want, pick("DE", "NP", "AU", "", "FR"))
					}
				}
				first, ok, err := s.FirstScan(ctx, v)
				all := v
				all.From, all.To, all.Bots = start.AddDate(0, 0, -1), start.AddDate(0, 1, 0), true
				recount, rerr := store.RecountReport(ctx, s, all)
				if err != nil || rerr != nil || !ok || len(recount.Slots) == 0 || !first.Equal(recount.Slots[0].Start) {
					t.Fatalf("%+v: first scan %v %v %v; recount %v", v, first, ok, err, rerr)
				}
			}
		}
		t.Run("recorded", check)
		// The tag gains a code and the folder loses one after their rows
		// were built.
		if err := s.SetCodeTags(ctx, ws, true, codes[3].ID, []int64{tag.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCodeFolder(ctx, ws, true, codes[5].ID, nil); err != nil {
			t.Fatal(err)
		}
		// Three more days close while batches are saved.
		record(12, start.AddDate(0, 0, 9).Add(store.CloseGrace))
		if open, err := store.OpenDay(ctx, s); err != nil || !open.Equal(start.AddDate(0, 0, 9)) {
			t.Fatalf("open day %v, %v; want %v", open, err, start.AddDate(0, 0, 9))
		}
		if _, err := s.DeleteDynamicCode(ctx, alice.ID, codes[4].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		t.Run("closed", check)
		if err := store.RebuildRollups(ctx, s); err != nil {
			t.Fatal(err)
		}
		t.Run("rebuilt", check)
		if n, err := s.CloseScanDays(ctx, start.AddDate(0, 0, 13).Add(store.CloseGrace)); err != nil || n != 4 {
			t.Fatalf("closed %d days, %v; want 4", n, err)
		}
		t.Run("all closed", check)
		if r, err := s.ScanReport(ctx, store.ScanQuery{WorkspaceID: alice.ID, CodeID: codes[1].ID, From: start, To: start.AddDate(0, 1, 0)}); err == nil {
			t.Errorf("the deleted code still reports: %+v", r)
		}
	})
}

// TestRollupsWithTwoWriters records one user's scans through two stores
// on one database, as two instances (or two processes on a SQLite file)
// would: in turns, at once, and with a deletion through one of them. Each
// store's writer cache must notice the other's changes rather than write
// back rows it read before them.
func TestRollupsWithTwoWriters(t *testing.T) {
	ctx := context.Background()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			user := storetest.CreateUser(t, a, "two@example.com")
			var codes []*store.DynamicCode
			for i := range 4 {
				codes = append(codes, storetest.CreateDynamic(t, a, user.ID, fmt.Sprintf("twowrite%d", i)))
			}
			utcDay := time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
			batch := func(i int, of []*store.DynamicCode) []store.ScanEvent {
				var events []store.ScanEvent
				for j := range 6 {
					events = append(events, store.ScanEvent{
						CodeID: of[j%len(of)].ID, ScannedAt: utcDay.Add(time.Duration(i*6+j) * time.Minute),
						DeviceType: "mobile", Country: []string{"DE", "FR", "NP"}[(i+j)%3], VisitorHash: fmt.Sprintf("v%d", (i+j)%5),
					})
				}
				return events
			}
			record := func(s *store.Store, events []store.ScanEvent) {
				if err := s.RecordScans(ctx, events); err != nil {
					t.Error(err)
				}
			}
			for i, s := range []*store.Store{a, b, a, b, a} {
				record(s, batch(i, codes))
			}
			// At once, on disjoint codes and on the same ones.
			for i := range 8 {
				var wg sync.WaitGroup
				wg.Go(func() { record(a, batch(10+i, codes[:2])) })
				wg.Go(func() { record(b, batch(20+i, codes[2:])) })
				wg.Wait()
				wg.Go(func() { record(a, batch(30+i, codes)) })
				wg.Go(func() { record(b, batch(40+i, codes)) })
				wg.Wait()
			}
			if _, err := b.DeleteDynamicCode(ctx, user.ID, codes[1].ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			record(a, batch(50, codes))
			record(b, batch(51, codes))
			for _, s := range []*store.Store{a, b} {
				for _, q := range []store.ScanQuery{{WorkspaceID: user.ID}, {WorkspaceID: user.ID, CodeID: codes[0].ID}, {WorkspaceID: user.ID, CodeID: codes[3].ID}} {
					q.From, q.To = utcDay, utcDay.AddDate(0, 0, 1) // read from the rollups alone
					checkRecount(t, s, q)
				}
			}
		})
	}
}

// checkRecount fails t unless the view q, read through the rollups, equals
// a recount of the scan events; it returns the recount.
func checkRecount(t *testing.T, s *store.Store, q store.ScanQuery) *store.ScanReport {
	t.Helper()
	ctx := context.Background()
	got, err := s.ScanReport(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.RecountReport(ctx, s, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v in %s:\nrollups %+v\nrecount %+v", q, q.From.Location(), got, want)
	}
	return want
}

// checkCountryView checks q's view of one country's scans: it equals a
// recount of them, and its scans are what the whole view (all, read from
// the rollups) counts for that country, and all of them.
func checkCountryView(t *testing.T, s *store.Store, q store.ScanQuery, all *store.ScanReport, country string) {
	t.Helper()
	q.ByCountry, q.Country = true, country
	got := checkRecount(t, s, q)
	if got.Scans != all.Countries[country] {
		t.Fatalf("%+v: %d scans, the whole view counts %d in %q", q, got.Scans, all.Countries[country], country)
	}
	if got.Scans > 0 && (len(got.Countries) != 1 || got.Countries[country] != got.Scans) {
		t.Fatalf("%+v: countries %v", q, got.Countries)
	}
	if n, err := s.ScanCount(context.Background(), q); err != nil || n != got.Scans {
		t.Fatalf("%+v: count %d, %v; report %d", q, n, err, got.Scans)
	}
	// All time starts at the first scan of any country.
	first, _, err := s.FirstScan(context.Background(), q)
	q.ByCountry = false
	if want, _, _ := s.FirstScan(context.Background(), q); err != nil || !first.Equal(want) {
		t.Fatalf("%+v: first scan %v, %v; of any country %v", q, first, err, want)
	}
}

// TestOpenDays follows a code through its open days: the views read its
// events until a day closes, which happens only closeGrace after the day
// ends, writes the day's rows, and leaves later scans of that day (after
// an outage) to be added to them.
func TestOpenDays(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "open@example.com")
		code := storetest.CreateDynamic(t, s, u.ID, "opendays")
		day := time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC) // a month's end
		if err := store.SetOpenDay(ctx, s, day); err != nil {
			t.Fatal(err)
		}
		scan := func(at time.Time, hash string) {
			t.Helper()
			err := s.RecordScans(ctx, []store.ScanEvent{{CodeID: code.ID, ScannedAt: at, DeviceType: "mobile", Country: "NP", VisitorHash: hash}})
			if err != nil {
				t.Fatal(err)
			}
		}
		views := func() {
			t.Helper()
			for _, q := range []store.ScanQuery{{WorkspaceID: u.ID, CodeID: code.ID}, {WorkspaceID: u.ID}} {
				q.From, q.To = day.AddDate(0, 0, -1), day.AddDate(0, 0, 3)
				want := checkRecount(t, s, q)
				first, ok, err := s.FirstScan(ctx, q)
				if err != nil || !ok || !first.Equal(want.Slots[0].Start) {
					t.Fatalf("%+v: first scan %v %v %v; want %v", q, first, ok, err, want.Slots[0].Start)
				}
			}
		}
		scan(day.Add(5*time.Hour+20*time.Minute), "a")
		scan(day.Add(23*time.Hour), "b")
		scan(day.Add(25*time.Hour), "a")
		views() // every scan in open days: the code's view and first scan come from its events

		closeAt := func(at time.Time, want int, open time.Time) {
			t.Helper()
			n, err := s.CloseScanDays(ctx, at)
			got, oerr := store.OpenDay(ctx, s)
			if err != nil || oerr != nil || n != want || !got.Equal(open) {
				t.Fatalf("closing at %v: %d days, %v, open %v %v; want %d days, open %v", at, n, err, got, oerr, want, open)
			}
		}
		end := day.AddDate(0, 0, 1)
		closeAt(end.Add(store.CloseGrace-time.Second), 0, day)
		closeAt(end.Add(store.CloseGrace), 1, end)
		views()
		scan(day.Add(12*time.Hour), "c") // late, into the closed day's row
		scan(day.Add(2*time.Hour), "a")  // earlier than its first scan
		views()
		closeAt(end.AddDate(0, 0, 3), 2, end.AddDate(0, 0, 2))
		views()
	})
}

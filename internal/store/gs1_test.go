package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// GS1 products: one per GTIN in a workspace, lots saved with them, every
// change audited and announced under the GTIN's key, entries read across
// live workspaces oldest first, and a workspace's deletion deleting and
// announcing its products.
func TestGS1Products(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: 1, Email: "a@example.com"})
		now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		var announced []string
		st.OnRedirectsChanged(func(keys []string, _ error) {
			mu.Lock()
			defer mu.Unlock()
			announced = append(announced, keys...)
		})
		took := func() []string {
			mu.Lock()
			defer mu.Unlock()
			a := announced
			announced = nil
			return a
		}
		alice := storetest.CreateUser(t, st, "alice@example.com")
		bob := storetest.CreateUser(t, st, "bob@example.com")
		a := storetest.Personal(t, st, alice.ID)
		team, err := st.CreateWorkspace(ctx, bob.ID, 1, "Brand", now)
		if err != nil {
			t.Fatal(err)
		}
		const gtin = "09506000134352"
		p := &store.GS1Product{GTIN: gtin, Name: "Cereal", Links: `[{"linkType":"gs1:defaultLink","href":"https://a.example/p"}]`,
			Lots: []store.GS1Lot{{Lot: "L1", Links: `[]`}}}
		if err := st.CreateGS1Product(ctx, a, p, 10, now); err != nil {
			t.Fatal(err)
		}
		if got := took(); !slices.Equal(got, []string{store.GS1Key(gtin)}) {
			t.Errorf("creation announced %q", got)
		}
		if g, ok := store.AnnouncedGTIN(store.GS1Key(gtin)); !ok || g != gtin {
			t.Errorf("AnnouncedGTIN: %q %v", g, ok)
		}
		if _, ok := store.AnnouncedGTIN("abc123"); ok {
			t.Error("a short code read as a GTIN")
		}
		if err := st.CreateGS1Product(ctx, a, &store.GS1Product{GTIN: gtin, Name: "Again", Links: `[]`}, 10, now); !errors.Is(err, store.ErrConflict) {
			t.Errorf("second product of one GTIN: %v", err)
		}
		if err := st.CreateGS1Product(ctx, a, &store.GS1Product{GTIN: "00000000000000", Name: "Over", Links: `[]`}, 1, now); !errors.Is(err, store.ErrLimit) {
			t.Errorf("past the limit: %v", err)
		}
		// Another workspace may list the same GTIN; it comes second.
		if err := st.CreateGS1Product(ctx, team.ID, &store.GS1Product{GTIN: gtin, Name: "Copy", Links: `[]`}, 10, now); err != nil {
			t.Fatal(err)
		}
		took()
		got, err := st.GS1Product(ctx, a, gtin)
		if err != nil || got.Name != "Cereal" || len(got.Lots) != 1 || got.Lots[0].Lot != "L1" || !got.CreatedAt.Equal(now) {
			t.Fatalf("read back: %+v, %v", got, err)
		}
		if _, err := st.GS1Product(ctx, a, "09520123456788"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown GTIN: %v", err)
		}
		entries, err := st.GS1Entries(ctx, gtin)
		if err != nil || len(entries) != 2 || entries[0].WorkspaceID != a || entries[1].WorkspaceID != team.ID {
			t.Fatalf("entries: %+v, %v", entries, err)
		}

		// A change replaces the lots; an error from the change saves nothing.
		later := now.Add(time.Hour)
		if _, err := st.ChangeGS1Product(ctx, a, gtin, "gs1_product.updated", func(p *store.GS1Product) (map[string]any, error) {
			p.Name = "Broken"
			return nil, errors.New("refused")
		}, later); err == nil || err.Error() != "refused" {
			t.Errorf("refused change: %v", err)
		}
		if len(took()) != 0 {
			t.Error("a refused change was announced")
		}
		changed, err := st.ChangeGS1Product(ctx, a, gtin, "gs1_lot.recalled", func(p *store.GS1Product) (map[string]any, error) {
			p.Lots = []store.GS1Lot{{Lot: "L2", Links: `[{"linkType":"gs1:recallStatus","href":"https://a.example/r"}]`}}
			return map[string]any{"lot": "L2"}, nil
		}, later)
		if err != nil || !changed.UpdatedAt.Equal(later) {
			t.Fatalf("change: %+v, %v", changed, err)
		}
		if got := took(); !slices.Equal(got, []string{store.GS1Key(gtin)}) {
			t.Errorf("change announced %q", got)
		}
		got, _ = st.GS1Product(ctx, a, gtin)
		if got.Name != "Cereal" || len(got.Lots) != 1 || got.Lots[0].Lot != "L2" || !got.UpdatedAt.Equal(later) {
			t.Errorf("after the change: %+v", got)
		}
		if _, err := st.ChangeGS1Product(ctx, team.ID+a+1, gtin, "x", func(*store.GS1Product) (map[string]any, error) { return nil, nil }, later); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("changing in another workspace: %v", err)
		}
		log, err := st.AuditLog(ctx, a, 0, 10)
		if err != nil || len(log) < 2 || log[0].Action != "gs1_lot.recalled" || log[1].Action != "gs1_product.created" || log[0].Target.Name != gtin {
			t.Errorf("audit log: %+v, %v", log, err)
		}

		// Deleting the team workspace deletes and announces its product.
		if err := st.DeleteWorkspace(ctx, team.ID, later); err != nil {
			t.Fatal(err)
		}
		if got := took(); !slices.Contains(got, store.GS1Key(gtin)) {
			t.Errorf("workspace deletion announced %q", got)
		}
		if entries, _ := st.GS1Entries(ctx, gtin); len(entries) != 1 || entries[0].WorkspaceID != a {
			t.Errorf("entries after the workspace's deletion: %+v", entries)
		}
		if err := st.DeleteGS1Product(ctx, a, gtin); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteGS1Product(ctx, a, gtin); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting twice: %v", err)
		}
		if entries, _ := st.GS1Entries(ctx, gtin); len(entries) != 0 {
			t.Errorf("entries after deletion: %+v", entries)
		}
		if n := storetest.Count(t, st, "gs1_lots"); n != 0 {
			t.Errorf("%d lots left", n)
		}
	})
}

// Scan counts add up per day, GTIN, lot and link type.
func TestGS1ScanCounts(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "c@example.com")
		ws := storetest.Personal(t, st, u.ID)
		d1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		d2 := d1.AddDate(0, 0, 1)
		add := func(day time.Time, lot, lt string, n int64) store.GS1ScanCount {
			return store.GS1ScanCount{WorkspaceID: ws, Day: day, GTIN: "09506000134352", Lot: lot, LinkType: lt, Scans: n}
		}
		for range 2 {
			if err := st.AddGS1Scans(ctx, []store.GS1ScanCount{add(d1, "L1", "gs1:defaultLink", 2), add(d2, "L1", "gs1:defaultLink", 1), add(d2, "", "gs1:pip", 5)}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := st.GS1ScanCounts(ctx, ws, d1, d2, 100)
		if err != nil || len(got.Top) != 2 || got.Top[0].Lot != "" || got.Top[0].Scans != 10 || got.Top[1].Lot != "L1" || got.Top[1].Scans != 6 || got.Rows != 2 || got.Scans != 16 {
			t.Fatalf("both days: %+v, %v", got, err)
		}
		got, _ = st.GS1ScanCounts(ctx, ws, d1, d1, 100)
		if len(got.Top) != 1 || got.Top[0].Scans != 4 || got.Top[0].LinkType != "gs1:defaultLink" {
			t.Errorf("first day: %+v", got)
		}
		// A key named twice in one batch is summed.
		if err := st.AddGS1Scans(ctx, []store.GS1ScanCount{add(d1, "L1", "gs1:pip", 1), add(d1, "L1", "gs1:pip", 2)}); err != nil {
			t.Fatal(err)
		}
		if got, _ = st.GS1ScanCounts(ctx, ws, d1, d1, 100); len(got.Top) != 2 || got.Top[1].LinkType != "gs1:pip" || got.Top[1].Scans != 3 {
			t.Errorf("a key twice: %+v", got)
		}
	})
}

// gs1Lots reads the stored lot values of the workspace's day of gtin: the
// lots counted under their own name (not "" or GS1OtherLots), the rows,
// and the scans.
func gs1Lots(t *testing.T, st *store.Store, ws int64, day time.Time, gtin string) (lots, rows, scans int64) {
	t.Helper()
	storetest.QueryRow(t, st, `SELECT COUNT(DISTINCT CASE WHEN lot <> '' AND lot <> $4 THEN lot END), COUNT(*), COALESCE(CAST(SUM(scans) AS bigint), 0)
		FROM gs1_scan_days WHERE workspace_id = $1 AND day = $2 AND gtin = $3`,
		[]any{ws, day.Format("2006-01-02T15:04:05.000000Z"), gtin, store.GS1OtherLots}, &lots, &rows, &scans)
	return lots, rows, scans
}

// Made-up lots of a GTIN cannot grow the table: past GS1UnlistedLots a
// (workspace, day, GTIN)'s new unlisted lots count under GS1OtherLots,
// every scan still counted, the most scanned of a batch keeping their
// names; a lot already counted that day, and a lot the product lists,
// keep their own rows; another day, GTIN or workspace has its own bound.
func TestGS1ScanLotsBounded(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: 1, Email: "a@example.com"})
		u := storetest.CreateUser(t, st, "lots@example.com")
		ws := storetest.Personal(t, st, u.ID)
		const gtin, other = "09506000134352", "09520123456788"
		p := &store.GS1Product{GTIN: gtin, Name: "Cereal", Links: `[{"linkType":"gs1:defaultLink","href":"https://a.example/p"}]`,
			Lots: []store.GS1Lot{{Lot: "LISTED", Links: `[]`}}}
		if err := st.CreateGS1Product(ctx, ws, p, 10, time.Now()); err != nil {
			t.Fatal(err)
		}
		day := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
		var want int64
		count := func(day time.Time, gtin, lot, lt string, n int64) store.GS1ScanCount {
			want += n
			return store.GS1ScanCount{WorkspaceID: ws, Day: day, GTIN: gtin, Lot: lot, LinkType: lt, Scans: n}
		}
		// One batch of 1,234 made-up lots (every third scanned 3 times),
		// 10 with a second link type, the listed lot and scans without one.
		var batch []store.GS1ScanCount
		for i := range 1_234 {
			batch = append(batch, count(day, gtin, fmt.Sprintf("B%04d", i), "gs1:pip", int64(i%3+1)))
			if i < 10 {
				batch = append(batch, count(day, gtin, fmt.Sprintf("B%04d", i), "gs1:defaultLink", 1))
			}
		}
		batch = append(batch, count(day, gtin, "LISTED", "gs1:pip", 7), count(day, gtin, "", "gs1:pip", 2))
		if err := st.AddGS1Scans(ctx, batch); err != nil {
			t.Fatal(err)
		}
		lots, rows, scans := gs1Lots(t, st, ws, day, gtin)
		if lots != store.GS1UnlistedLots+1 || scans != want {
			t.Fatalf("after one batch: %d lots by name (want %d and the listed one), %d scans (want %d)", lots, store.GS1UnlistedLots, scans, want)
		}
		// The 100 unlisted lots (6 of them with two link types), the other
		// lots' two link types, the listed lot's and no lot's.
		if rows != store.GS1UnlistedLots+6+2+1+1 {
			t.Errorf("after one batch: %d rows", rows)
		}
		got, err := st.GS1ScanCounts(ctx, ws, day, day, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		byLot := map[string]int64{}
		for _, c := range got.Top {
			byLot[c.Lot] += c.Scans
		}
		// The most scanned of the batch kept their names, then the first by
		// name: B0002, B0005 and B0008 (4 scans), B0001, B0004, B0007,
		// B0011, B0014, … B0290 (3).
		if byLot["B0002"] != 4 || byLot["B0001"] != 3 || byLot["B0290"] != 3 || byLot["B0293"] != 0 || byLot["B0000"] != 0 ||
			byLot["LISTED"] != 7 || byLot[""] != 2 || byLot[store.GS1OtherLots] == 0 {
			t.Errorf("by lot: %v", byLot)
		}

		// Later batches: a lot with a row keeps counting in it (under a new
		// link type too), a new lot goes to the other lots, the listed lot
		// and a lot listed since keep their own.
		p.Lots = append(p.Lots, store.GS1Lot{Lot: "LATER", Links: `[]`})
		if _, err := st.ChangeGS1Product(ctx, ws, gtin, "gs1_product.updated", func(q *store.GS1Product) (map[string]any, error) {
			q.Lots = p.Lots
			return nil, nil
		}, time.Now()); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := st.AddGS1Scans(ctx, []store.GS1ScanCount{
				count(day, gtin, "B0002", "gs1:pip", 1), count(day, gtin, "B0002", "gs1:review", 1),
				count(day, gtin, fmt.Sprint("NEW", i), "gs1:pip", 50), count(day, gtin, "LISTED", "gs1:review", 1),
				count(day, gtin, "LATER", "gs1:pip", 1),
			}); err != nil {
				t.Fatal(err)
			}
		}
		lots, rows, scans = gs1Lots(t, st, ws, day, gtin)
		if lots != store.GS1UnlistedLots+2 || rows != store.GS1UnlistedLots+10+3 || scans != want {
			t.Errorf("after later batches: %d lots by name, %d rows, %d scans (want %d)", lots, rows, scans, want)
		}
		got, _ = st.GS1ScanCounts(ctx, ws, day, day, 10_000)
		byLot = map[string]int64{}
		for _, c := range got.Top {
			byLot[c.Lot] += c.Scans
		}
		if byLot["B0002"] != 10 || byLot["NEW0"] != 0 || byLot["LISTED"] != 10 || byLot["LATER"] != 3 {
			t.Errorf("later: B0002 %d, NEW0 %d, LISTED %d, LATER %d", byLot["B0002"], byLot["NEW0"], byLot["LISTED"], byLot["LATER"])
		}

		// Another day, another GTIN, another workspace: bounds of their own.
		next := day.AddDate(0, 0, 1)
		team, err := st.CreateWorkspace(ctx, u.ID, 1, "Brand", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		batch = nil
		for i := range 150 {
			lot := fmt.Sprintf("X%03d", i)
			batch = append(batch, count(next, gtin, lot, "gs1:pip", 1), count(day, other, lot, "gs1:pip", 1))
			c := count(day, gtin, lot, "gs1:pip", 1)
			c.WorkspaceID = team.ID
			batch = append(batch, c)
		}
		if err := st.AddGS1Scans(ctx, batch); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			ws   int64
			day  time.Time
			gtin string
		}{{ws, next, gtin}, {ws, day, other}, {team.ID, day, gtin}} {
			if lots, _, scans := gs1Lots(t, st, c.ws, c.day, c.gtin); lots != store.GS1UnlistedLots || scans != 150 {
				t.Errorf("%+v: %d lots by name, %d scans", c, lots, scans)
			}
		}
	})
}

// Writers side by side (several instances flushing at once) cannot pass
// the bound together: each sees the others' lots.
func TestGS1ScanLotsBoundedInParallel(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "parallel@example.com")
		ws := storetest.Personal(t, st, u.ID)
		const gtin = "09506000134352"
		day := time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC)
		const writers, rounds, perBatch = 8, 4, 30
		var wg sync.WaitGroup
		errs := make(chan error, writers*rounds)
		start := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				<-start
				for r := range rounds {
					batch := make([]store.GS1ScanCount, perBatch)
					for i := range batch {
						batch[i] = store.GS1ScanCount{WorkspaceID: ws, Day: day, GTIN: gtin, Lot: fmt.Sprintf("W%d-R%d-%02d", w, r, i), LinkType: "gs1:pip", Scans: 1}
					}
					errs <- st.AddGS1Scans(ctx, batch)
				}
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if lots, rows, scans := gs1Lots(t, st, ws, day, gtin); lots != store.GS1UnlistedLots || rows != store.GS1UnlistedLots+1 || scans != writers*rounds*perBatch {
			t.Errorf("%d lots by name, %d rows (want %d and the other lots'), %d scans (want %d)", lots, rows, store.GS1UnlistedLots, scans, writers*rounds*perBatch)
		}
	})
}

// The analytics read is bounded: the most scanned rows up to the limit,
// with the number and the scans of them all.
func TestGS1ScanCountsCapped(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "capped@example.com")
		ws := storetest.Personal(t, st, u.ID)
		d1 := time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC)
		var batch []store.GS1ScanCount
		var want int64
		for day := range 3 {
			for g := range 20 {
				for _, lt := range []string{"gs1:pip", "gs1:defaultLink"} {
					n := int64(g + 1)
					if day == 0 && g == 7 {
						n = 1000 // the most scanned row
					}
					batch = append(batch, store.GS1ScanCount{WorkspaceID: ws, Day: d1.AddDate(0, 0, day), GTIN: fmt.Sprintf("0950600013%04d", g), Lot: "L", LinkType: lt, Scans: n})
					want += n
				}
			}
		}
		if err := st.AddGS1Scans(ctx, batch); err != nil {
			t.Fatal(err)
		}
		got, err := st.GS1ScanCounts(ctx, ws, d1, d1.AddDate(0, 0, 2), 5)
		if err != nil {
			t.Fatal(err)
		}
		var top int64
		for _, c := range got.Top {
			top += c.Scans
		}
		if len(got.Top) != 5 || got.Rows != 40 || got.Scans != want || got.Top[0].GTIN != "09506000130007" || got.Top[0].Scans != 1000+8+8 || got.Top[1].Scans < got.Top[4].Scans || top >= want {
			t.Errorf("capped: %d rows of %d, %d scans of %d (want %d), first %+v", len(got.Top), got.Rows, top, got.Scans, want, got.Top[0])
		}
		// A range without scans.
		if got, err := st.GS1ScanCounts(ctx, ws, d1.AddDate(0, 0, 10), d1.AddDate(0, 0, 11), 5); err != nil || len(got.Top) != 0 || got.Rows != 0 || got.Scans != 0 {
			t.Errorf("empty range: %+v, %v", got, err)
		}
	})
}

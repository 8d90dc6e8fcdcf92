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
		got, err := st.GS1ScanCounts(ctx, ws, d1, d2)
		if err != nil || len(got) != 2 || got[0].Lot != "" || got[0].Scans != 10 || got[1].Lot != "L1" || got[1].Scans != 6 {
			t.Fatalf("both days: %+v, %v", got, err)
		}
		got, _ = st.GS1ScanCounts(ctx, ws, d1, d1)
		if len(got) != 1 || got[0].Scans != 4 || got[0].LinkType != "gs1:defaultLink" {
			t.Errorf("first day: %+v", got)
		}

		// A flush of many keys goes in several statements, each key counted.
		d3 := d2.AddDate(0, 0, 1)
		many := make([]store.GS1ScanCount, 1_234)
		for i := range many {
			many[i] = store.GS1ScanCount{WorkspaceID: ws, Day: d3, GTIN: "09506000134352", Lot: fmt.Sprint("B", i), LinkType: "gs1:pip", Scans: int64(i%3 + 1)}
		}
		for range 2 {
			if err := st.AddGS1Scans(ctx, many); err != nil {
				t.Fatal(err)
			}
		}
		got, _ = st.GS1ScanCounts(ctx, ws, d3, d3)
		var total int64
		for _, c := range got {
			total += c.Scans
		}
		if len(got) != len(many) || total != 2*(411*(1+2+3)+1) || got[0].Scans != 6 {
			t.Errorf("many keys: %d rows, %d scans, first %+v", len(got), total, got[0])
		}
	})
}

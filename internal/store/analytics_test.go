package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// exec runs raw SQL for rows whose store methods belong to other areas.
func exec(t *testing.T, s *store.Store, query string, args ...any) {
	t.Helper()
	if _, err := store.WriteDB(s).Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func TestUserAnalytics(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "stats@example.com")
		other := storetest.CreateUser(t, s, "other@example.com")
		now := time.Date(2026, 8, 31, 12, 0, 0, 0, time.UTC)
		old := "2026-06-01T00:00:00.000000Z"
		recent := "2026-08-20T00:00:00.000000Z"

		// Static codes: 4 of u's (one deleted), 1 of other's.
		var static []int64
		for i, typ := range []string{"url", "url", "contact", "email"} {
			var id int64
			err := store.WriteDB(s).QueryRow(`INSERT INTO qr_codes (workspace_id, user_id, name, qr_type, is_deleted) VALUES ((SELECT id FROM workspaces WHERE personal_user_id = $1), $1, $2, $3, $4) RETURNING id`,
				u.ID, fmt.Sprintf("static %d", i), typ, i == 3).Scan(&id)
			if err != nil {
				t.Fatal(err)
			}
			static = append(static, id)
		}
		exec(t, s, `INSERT INTO qr_codes (workspace_id, user_id, name, qr_type) VALUES ((SELECT id FROM workspaces WHERE personal_user_id = $1), $1, 'theirs', 'url')`, other.ID)
		// Downloads: static[1] 3 (one old), static[0] 1; generations: static[0] 2, static[2] 1; one unlinked.
		for _, d := range []struct {
			code int64
			at   string
		}{{static[1], recent}, {static[1], recent}, {static[1], old}, {static[0], recent}} {
			exec(t, s, `INSERT INTO qr_downloads (qr_code_id, user_id, downloaded_at) VALUES ($1, $2, $3)`, d.code, u.ID, d.at)
		}
		for _, g := range []struct {
			code any
			at   string
		}{{static[0], recent}, {static[0], old}, {static[2], recent}, {nil, recent}} {
			exec(t, s, `INSERT INTO qr_generations (qr_code_id, user_id, qr_type, generated_at) VALUES ($1, $2, 'url', $3)`, g.code, u.ID, g.at)
		}
		exec(t, s, `INSERT INTO qr_generations (user_id, qr_type) VALUES ($1, 'url')`, other.ID)

		// Dynamic codes with scans 5, 9, 1, 7 and one deleted with 100.
		var dyn []*store.DynamicCode
		for i, n := range []int{5, 9, 1, 7, 100} {
			d := storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("stat%04d", i))
			exec(t, s, `INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES ($1, $2, $3)`, d.ID, n, now.Format(time.RFC3339Nano))
			dyn = append(dyn, d)
		}
		if _, err := s.DeleteDynamicCode(ctx, u.ID, dyn[4].ID, now); err != nil {
			t.Fatal(err)
		}

		a, err := s.UserAnalytics(ctx, u.ID, u.ID, now.AddDate(0, 0, -30))
		if err != nil {
			t.Fatal(err)
		}
		want := store.UserAnalytics{TotalQRCodes: 7, StaticQRCodes: 3, DynamicQRCodes: 4, TotalScans: 22,
			TotalDownloads: 4, TotalGenerations: 4, RecentDownloads: 3, RecentGenerations: 3}
		got := *a
		got.TypeDistribution, got.TopStatic, got.TopDynamic = nil, nil, nil
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("totals = %+v\nwant %+v", got, want)
		}
		if fmt.Sprint(a.TypeDistribution) != "map[contact:1 url:6]" {
			t.Errorf("TypeDistribution = %v", a.TypeDistribution)
		}
		wantStatic := []store.StaticPerformance{
			{ID: static[1], Name: "static 1", QRType: "url", Downloads: 3},
			{ID: static[0], Name: "static 0", QRType: "url", Downloads: 1, Generations: 2},
			{ID: static[2], Name: "static 2", QRType: "contact", Generations: 1},
		}
		if fmt.Sprint(a.TopStatic) != fmt.Sprint(wantStatic) {
			t.Errorf("TopStatic = %+v\nwant %+v", a.TopStatic, wantStatic)
		}
		wantDyn := []store.DynamicPerformance{{dyn[1].ID, "Menu", 9}, {dyn[3].ID, "Menu", 7}, {dyn[0].ID, "Menu", 5}}
		if fmt.Sprint(a.TopDynamic) != fmt.Sprint(wantDyn) {
			t.Errorf("TopDynamic = %+v\nwant %+v", a.TopDynamic, wantDyn)
		}

		newcomer := storetest.CreateUser(t, s, "new@example.com").ID
		empty, err := s.UserAnalytics(ctx, newcomer, newcomer, now)
		if err != nil || empty.TotalQRCodes != 0 || len(empty.TypeDistribution) != 0 || empty.TopStatic != nil {
			t.Errorf("new user's analytics = %+v, %v", empty, err)
		}
	})
}

func TestScanReport(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "code@example.com")
		d := storetest.CreateDynamic(t, s, u.ID, "codestat")
		d2 := storetest.CreateDynamic(t, s, u.ID, "codestat2")
		gone := storetest.CreateDynamic(t, s, u.ID, "codegone")
		at := func(day, h, m int) time.Time { return time.Date(2026, 9, day, h, m, 0, 0, time.UTC) }
		events := []store.ScanEvent{
			{CodeID: d.ID, ScannedAt: at(30, 1, 0), DeviceType: "mobile", OS: "iOS", Browser: "Safari", Referrer: "https://a.example", VisitorHash: "v1", Country: "DE"},
			{CodeID: d.ID, ScannedAt: at(30, 1, 14), DeviceType: "mobile", OS: "iOS", Browser: "Safari", Referrer: "https://a.example", VisitorHash: "v1", Country: "DE"},
			{CodeID: d.ID, ScannedAt: at(30, 3, 59), DeviceType: "desktop", OS: "Windows", Browser: "Chrome", Referrer: "https://b.example", VisitorHash: "v2", Country: "US"},
			{CodeID: d.ID, ScannedAt: at(1, 23, 30), DeviceType: "tablet", OS: "Android", Browser: "Chrome", VisitorHash: "v3"},
			{CodeID: d.ID, ScannedAt: at(30, 4, 0), DeviceType: "bot", Browser: "Slackbot", Referrer: "https://c.example", VisitorHash: "b1", IsBot: true, Country: "US"},
			{CodeID: d2.ID, ScannedAt: at(15, 12, 0), DeviceType: "mobile", OS: "iOS", Browser: "Safari", VisitorHash: "v4", Country: "FR"},
			{CodeID: gone.ID, ScannedAt: at(15, 12, 0), DeviceType: "mobile", VisitorHash: "v5", Country: "JP"},
			// Outside the range: before it, and at its end (the end is excluded).
			{CodeID: d.ID, ScannedAt: at(1, 0, 0).AddDate(0, 0, -3), DeviceType: "mobile", VisitorHash: "old"},
			{CodeID: d.ID, ScannedAt: at(1, 0, 0).AddDate(0, 1, 0), DeviceType: "mobile", VisitorHash: "new"},
		}
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeleteDynamicCode(ctx, u.ID, gone.ID, at(30, 0, 0)); err != nil {
			t.Fatal(err)
		}
		q := store.ScanQuery{WorkspaceID: u.ID, CodeID: d.ID, From: at(1, 0, 0), To: at(1, 0, 0).AddDate(0, 1, 0)}
		r, err := s.ScanReport(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if r.Scans != 4 || r.BotScans != 1 || r.UniqueVisitors != 3 {
			t.Errorf("humans: scans %d bots %d unique %d", r.Scans, r.BotScans, r.UniqueVisitors)
		}
		if fmt.Sprint(r.Slots) != fmt.Sprint([]store.ScanSlot{{Start: at(1, 23, 30), Scans: 1}, {Start: at(30, 1, 0), Scans: 2}, {Start: at(30, 3, 45), Scans: 1}}) {
			t.Errorf("slots = %v", r.Slots)
		}
		if fmt.Sprint(r.Countries, r.Devices, r.OS, r.Browsers) != "map[:1 DE:2 US:1] map[desktop:1 mobile:2 tablet:1] map[Android:1 Windows:1 iOS:2] map[Chrome:2 Safari:2]" {
			t.Errorf("shares = %v %v %v %v", r.Countries, r.Devices, r.OS, r.Browsers)
		}
		if fmt.Sprint(r.Referrers) != "[{https://a.example 2} {https://b.example 1}]" {
			t.Errorf("referrers = %v", r.Referrers)
		}

		q.Bots = true
		if r, err = s.ScanReport(ctx, q); err != nil {
			t.Fatal(err)
		}
		if r.Scans != 5 || r.BotScans != 1 || r.UniqueVisitors != 4 || r.Countries["US"] != 2 || r.Devices["bot"] != 1 || len(r.Referrers) != 3 {
			t.Errorf("with bots: %+v", r)
		}
		if n, err := s.ScanCount(ctx, q); err != nil || n != 5 {
			t.Errorf("count with bots = %d, %v", n, err)
		}

		// The account: every live code of the user, not the deleted one.
		q.CodeID, q.Bots = 0, false
		if r, err = s.ScanReport(ctx, q); err != nil {
			t.Fatal(err)
		}
		if r.Scans != 5 || r.Countries["FR"] != 1 || r.Countries["JP"] != 0 {
			t.Errorf("account: %+v", r)
		}
		first, ok, err := s.FirstScan(ctx, q)
		if err != nil || !ok || !first.Equal(at(1, 0, 0).AddDate(0, 0, -3)) {
			t.Errorf("first scan = %v %v %v", first, ok, err)
		}

		other := storetest.CreateUser(t, s, "nosy@example.com")
		if _, err := s.ScanReport(ctx, store.ScanQuery{WorkspaceID: other.ID, CodeID: d.ID, From: q.From, To: q.To}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another user's code: %v", err)
		}
		if r, err := s.ScanReport(ctx, store.ScanQuery{WorkspaceID: other.ID, From: q.From, To: q.To}); err != nil || r.Scans != 0 || len(r.Slots) != 0 {
			t.Errorf("another user's account: %+v %v", r, err)
		}
		if _, ok, err := s.FirstScan(ctx, store.ScanQuery{WorkspaceID: other.ID}); ok || err != nil {
			t.Errorf("first scan of an account without scans: %v %v", ok, err)
		}
	})
}

package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestDynamicCodeRoundTripAndOwnership(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := storetest.CreateUser(t, s, "alice@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		d := storetest.NewDynamic(alice.ID, "Ab3dE9xZ")
		d.GradientColor, d.LogoFilePath, d.LogoFileName, d.EnableFrame = "#FF00FF", "/logo/4", "l.png", true
		d.Gradient = store.GradientSpec{Type: "linear", Angle: 90}
		if err := s.CreateDynamicCode(ctx, d, 12); err != nil {
			t.Fatal(err)
		}
		if d.ID == 0 || d.ClientID != 1 || d.CreatedAt.IsZero() || d.UpdatedAt != d.CreatedAt {
			t.Fatalf("defaults not filled: %+v", d)
		}
		got, err := s.DynamicCode(ctx, alice.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Tags = []store.Tag{}; !reflect.DeepEqual(got, d) {
			t.Errorf("DynamicCode =\n%+v\nwant\n%+v", *got, *d)
		}
		if _, err := s.DynamicCode(ctx, bob.ID, d.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another user's code: err = %v, want ErrNotFound", err)
		}
		now := time.Now()
		if _, err := s.SetDynamicDestination(ctx, bob.ID, d.ID, "https://evil.example", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SetDynamicDestination by another user: %v", err)
		}
		if _, err := s.RenameDynamicCode(ctx, bob.ID, d.ID, "x", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RenameDynamicCode by another user: %v", err)
		}
		if _, err := s.SetDynamicPaused(ctx, bob.ID, d.ID, true, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SetDynamicPaused by another user: %v", err)
		}
		if _, err := s.DeleteDynamicCode(ctx, bob.ID, d.ID, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("DeleteDynamicCode by another user: %v", err)
		}
		if list, err := s.DynamicCodes(ctx, bob.ID, false); err != nil || len(list) != 0 {
			t.Errorf("bob's list = %v, %v", list, err)
		}
		// A taken short code is a conflict, whoever asks.
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(bob.ID, "Ab3dE9xZ"), 0); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate short code: err = %v, want ErrConflict", err)
		}
	})
}

func TestDynamicCodeLifecycle(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "u@example.com")
		older := storetest.CreateDynamic(t, s, u.ID, "older001")
		d := storetest.CreateDynamic(t, s, u.ID, "newer001")
		now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

		got, err := s.SetDynamicDestination(ctx, u.ID, d.ID, "https://example.org/new", now)
		if err != nil || got.Destination != "https://example.org/new" || !got.UpdatedAt.Equal(now) {
			t.Fatalf("SetDynamicDestination = %+v, %v", got, err)
		}
		if got, err = s.RenameDynamicCode(ctx, u.ID, d.ID, "Lunch", now); err != nil || got.Name != "Lunch" {
			t.Fatalf("RenameDynamicCode = %+v, %v", got, err)
		}
		r, err := oneRedirect(ctx, s, "newer001")
		if err != nil || r != (store.Redirect{ID: d.ID, Destination: "https://example.org/new", ClientID: store.DefaultClientID, WorkspaceID: storetest.Personal(t, s, u.ID)}) {
			t.Fatalf("RedirectsByShortCode = %+v, %v", r, err)
		}

		if got, err = s.SetDynamicPaused(ctx, u.ID, d.ID, true, now); err != nil || !got.IsPaused || !got.PausedAt.Equal(now) {
			t.Fatalf("pause = %+v, %v", got, err)
		}
		if got, err = s.SetDynamicPaused(ctx, u.ID, d.ID, true, now.Add(time.Hour)); err != nil || !got.PausedAt.Equal(now) {
			t.Fatalf("pausing again moved PausedAt: %+v, %v", got, err)
		}
		if r, _ := oneRedirect(ctx, s, "newer001"); !r.Paused {
			t.Errorf("paused code's redirect = %+v", r)
		}
		active, _ := s.DynamicCodes(ctx, u.ID, false)
		paused, _ := s.DynamicCodes(ctx, u.ID, true)
		if len(active) != 1 || active[0].ID != older.ID || len(paused) != 1 || paused[0].ID != d.ID {
			t.Fatalf("active %v, paused %v", active, paused)
		}
		if got, err = s.SetDynamicPaused(ctx, u.ID, d.ID, false, now); err != nil || got.IsPaused || got.PausedAt != nil {
			t.Fatalf("resume = %+v, %v", got, err)
		}
		active, _ = s.DynamicCodes(ctx, u.ID, false)
		if len(active) != 2 || active[0].ID != d.ID {
			t.Fatalf("active after resume, newest first: %v", active)
		}

		code, err := s.DeleteDynamicCode(ctx, u.ID, d.ID, now)
		if err != nil || code != "newer001" {
			t.Fatalf("DeleteDynamicCode = %q, %v", code, err)
		}
		if _, err := s.DeleteDynamicCode(ctx, u.ID, d.ID, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting twice: %v", err)
		}
		if _, err := oneRedirect(ctx, s, "newer001"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted code still redirects: %v", err)
		}
		if _, err := s.DynamicCode(ctx, u.ID, d.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted code still found: %v", err)
		}
		if _, err := s.RenameDynamicCode(ctx, u.ID, d.ID, "x", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("renaming a deleted code: %v", err)
		}
		if n, err := s.CountDynamicCodes(ctx, u.ID, time.Now()); err != nil || n != 1 {
			t.Errorf("CountDynamicCodes = %d, %v; want 1 (deleted codes do not count)", n, err)
		}
		if _, err := oneRedirect(ctx, s, "nosuch00"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown short code: %v", err)
		}
		if r, err := oneRedirect(ctx, s, "older001"); err != nil || r.ID != older.ID {
			t.Fatalf("live code: %+v, %v", r, err)
		}
		if err := s.SoftDeleteUser(ctx, u.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := oneRedirect(ctx, s, "older001"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a deleted account's code still redirects: %v", err)
		}
	})
}

func TestDynamicCodeLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "limit@example.com")
		for i := range 3 {
			if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(u.ID, fmt.Sprintf("lim%05d", i)), 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(u.ID, "lim99999"), 3); !errors.Is(err, store.ErrLimit) {
			t.Fatalf("past the limit: err = %v, want ErrLimit", err)
		}
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(u.ID, "nolimit1"), 0); err != nil {
			t.Fatalf("limit 0 means none: %v", err)
		}
	})
}

// Concurrent creations at the limit: exactly the free slots succeed.
func TestDynamicCodeLimitConcurrent(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "race@example.com")
		storetest.CreateDynamic(t, s, u.ID, "race0000")
		const limit, tries = 3, 10
		var wg sync.WaitGroup
		errs := make([]error, tries)
		for i := range tries {
			wg.Go(func() {
				errs[i] = s.CreateDynamicCode(ctx, storetest.NewDynamic(u.ID, fmt.Sprintf("race%04d", i+1)), limit)
			})
		}
		wg.Wait()
		ok, limited := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrLimit):
				limited++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		if ok != limit-1 || limited != tries-ok {
			t.Errorf("%d created, %d limited; want %d created", ok, limited, limit-1)
		}
		if n, _ := s.CountDynamicCodes(ctx, u.ID, time.Now()); n != limit {
			t.Errorf("count = %d, want %d", n, limit)
		}
	})
}

func TestRecordScans(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "scans@example.com")
		a := storetest.CreateDynamic(t, s, u.ID, "scanA000")
		b := storetest.CreateDynamic(t, s, u.ID, "scanB000")
		t0 := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
		var events []store.ScanEvent
		// More than one INSERT's worth of rows.
		for i := range 1200 {
			events = append(events, store.ScanEvent{CodeID: a.ID, ScannedAt: t0.Add(time.Duration(i) * time.Second),
				DeviceType: "mobile", OS: "iOS", Browser: "Safari", VisitorHash: fmt.Sprint(i % 7)})
		}
		events = append(events,
			store.ScanEvent{CodeID: a.ID, ScannedAt: t0.Add(time.Hour * 5), DeviceType: "bot", Browser: "Slackbot", IsBot: true},
			store.ScanEvent{CodeID: b.ID, ScannedAt: t0, DeviceType: "desktop", Referrer: "https://news.example"})
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		// A later batch with an older event must not move last_scanned_at back.
		if err := s.RecordScans(ctx, []store.ScanEvent{{CodeID: b.ID, ScannedAt: t0.Add(-time.Hour)}}); err != nil {
			t.Fatal(err)
		}
		ga, _ := s.DynamicCode(ctx, u.ID, a.ID)
		gb, _ := s.DynamicCode(ctx, u.ID, b.ID)
		if ga.ScanCount != 1200 || !ga.LastScannedAt.Equal(t0.Add(1199*time.Second)) {
			t.Errorf("a: count %d last %v; bots must not count", ga.ScanCount, ga.LastScannedAt)
		}
		if gb.ScanCount != 2 || !gb.LastScannedAt.Equal(t0) {
			t.Errorf("b: count %d last %v", gb.ScanCount, gb.LastScannedAt)
		}
		n := 0
		err := s.ScanEvents(ctx, u.ID, b.ID, func(e *store.ScanEvent) error {
			if n == 0 && (!e.ScannedAt.Equal(t0.Add(-time.Hour)) || e.CodeID != b.ID) {
				t.Errorf("first event %+v, want the oldest", e)
			}
			if n == 1 && (e.Referrer != "https://news.example" || e.DeviceType != "desktop") {
				t.Errorf("second event %+v", e)
			}
			n++
			return nil
		})
		if err != nil || n != 2 {
			t.Errorf("ScanEvents: %d events, %v", n, err)
		}
		other := storetest.CreateUser(t, s, "other@example.com")
		n = 0
		if err := s.ScanEvents(ctx, other.ID, b.ID, func(*store.ScanEvent) error { n++; return nil }); err != nil || n != 0 {
			t.Errorf("another user's scans: %d, %v", n, err)
		}
		if err := s.RecordScans(ctx, nil); err != nil {
			t.Errorf("empty batch: %v", err)
		}
	})
}

// A code deleted outside the app (the app only marks codes deleted) takes
// its scans with it: through the foreign key's cascade on SQLite, through
// a statement trigger on PostgreSQL, where the key is gone for the
// recorder's sake; deleting its owner does too.
func TestDeletedCodeTakesItsScans(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "gone@example.com")
		kept := storetest.CreateUser(t, s, "kept@example.com")
		a := storetest.CreateDynamic(t, s, u.ID, "goneA000")
		b := storetest.CreateDynamic(t, s, u.ID, "goneB000")
		c := storetest.CreateDynamic(t, s, kept.ID, "keptC000")
		now := time.Now()
		var events []store.ScanEvent
		for i, id := range []int64{a.ID, a.ID, b.ID, b.ID, b.ID, c.ID} {
			events = append(events, store.ScanEvent{CodeID: id, ScannedAt: now.Add(time.Duration(i) * time.Second)})
		}
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		scans := func(id int64) (n int) {
			storetest.QueryRow(t, s, `SELECT count(*) FROM scan_events WHERE dynamic_qr_code_id = $1`, []any{id}, &n)
			return n
		}
		if _, err := store.WriteDB(s).ExecContext(ctx, `DELETE FROM dynamic_qr_codes WHERE id = $1`, a.ID); err != nil {
			t.Fatal(err)
		}
		if n, m := scans(a.ID), scans(b.ID); n != 0 || m != 3 {
			t.Errorf("after deleting code a: %d scans of a, %d of b; want 0 and 3", n, m)
		}
		if _, err := store.WriteDB(s).ExecContext(ctx, `DELETE FROM users WHERE id = $1`, u.ID); err != nil {
			t.Fatal(err)
		}
		if n, m := scans(b.ID), scans(c.ID); n != 0 || m != 1 {
			t.Errorf("after deleting b's owner: %d scans of b, %d of another owner's code; want 0 and 1", n, m)
		}
	})
}

func TestSecret(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		v1, err := s.Secret(ctx, "visitor", []byte("first"))
		if err != nil || string(v1) != "first" {
			t.Fatalf("Secret = %q, %v", v1, err)
		}
		v2, err := s.Secret(ctx, "visitor", []byte("second"))
		if err != nil || string(v2) != "first" {
			t.Fatalf("second Secret = %q, %v; want the first value kept", v2, err)
		}
	})
}

// A batch touching more codes than one UPDATE takes counts every one.
func TestRecordScansManyCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "many@example.com")
		const codes = 600
		at := time.Date(2026, 6, 2, 9, 0, 0, 0, time.UTC)
		var events []store.ScanEvent
		ids := make([]int64, codes)
		for i := range codes {
			ids[i] = storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("many%04d", i)).ID
			for range 1 + i%3 {
				events = append(events, store.ScanEvent{CodeID: ids[i], ScannedAt: at})
			}
		}
		// Twice: the second run reuses the prepared full-chunk statements.
		for range 2 {
			if err := s.RecordScans(ctx, events); err != nil {
				t.Fatal(err)
			}
		}
		for i, id := range ids {
			d, err := s.DynamicCode(ctx, u.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(2 * (1 + i%3)); d.ScanCount != want || !d.LastScannedAt.Equal(at) {
				t.Fatalf("code %d: %d scans at %v, want %d at %v", i, d.ScanCount, d.LastScannedAt, want, at)
			}
		}
	})
}

// RecentRedirects answers the live codes scanned, or else created, most
// recently.
func TestRecentRedirects(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "recent@example.com")
		base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		var ids []int64
		for i := range 4 {
			d := storetest.NewDynamic(u.ID, fmt.Sprintf("recent%02d", i))
			d.CreatedAt = base.Add(time.Duration(i) * time.Hour)
			if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, d.ID)
		}
		// recent00, the oldest, was scanned last; recent03, the newest, is deleted.
		if err := s.RecordScans(ctx, []store.ScanEvent{{CodeID: ids[0], ScannedAt: base.Add(10 * time.Hour), DeviceType: "mobile", VisitorHash: "v"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeleteDynamicCode(ctx, u.ID, ids[3], base.Add(11*time.Hour)); err != nil {
			t.Fatal(err)
		}
		got, err := s.RecentRedirects(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(got["recent00"]) != 1 || got["recent00"][0].ID != ids[0] || got["recent02"][0].ID != ids[2] {
			t.Errorf("RecentRedirects(2) = %v", got)
		}
		// A short code scanned last on a domain comes with its base-URL
		// code, made long before and never scanned: a host's scan picks
		// among all of them.
		ws := storetest.Personal(t, s, u.ID)
		domain := verifiedDomain(t, s, ws, "qr.recent.example")
		old := chosen(u.ID, "shared", nil)
		old.CreatedAt = base.Add(-5 * time.Hour)
		onDomain := chosen(u.ID, "shared", &domain)
		onDomain.CreatedAt = base.Add(-4 * time.Hour)
		for _, d := range []*store.DynamicCode{old, onDomain} {
			if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RecordScans(ctx, []store.ScanEvent{{CodeID: onDomain.ID, ScannedAt: base.Add(12 * time.Hour), DeviceType: "mobile", VisitorHash: "v"}}); err != nil {
			t.Fatal(err)
		}
		got, err = s.RecentRedirects(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(got["shared"]) != 2 || got["shared"][0].ID != old.ID || got["shared"][1].DomainID != domain || got["recent00"][0].ID != ids[0] {
			t.Errorf("RecentRedirects(2) with a shared code = %v", got)
		}
	})
}

// A short code that cannot exist (NUL, invalid UTF-8, outside the
// alphabet, too long) names no code and is never sent to the database:
// PostgreSQL refuses NUL and invalid UTF-8 in text, and that error failed
// the batched lookup of every good code loaded with it.
func TestRedirectsOfImpossibleShortCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "u@example.com")
		good := []string{"good0001", "good0002", "good0003"}
		for _, code := range good {
			storetest.CreateDynamic(t, s, u.ID, code)
		}
		bad := []string{"", "\x00", "\xff", "a\x00b", "good\x000001", "good.001", "good 001", "göod0001", "good/001", strings.Repeat("a", 65)}
		for _, code := range bad {
			if store.ValidShortCode(code) {
				t.Errorf("ValidShortCode(%q) = true", code)
			}
			if _, err := oneRedirect(ctx, s, code); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("RedirectsByShortCode(%q) = %v, want ErrNotFound", code, err)
			}
		}
		for _, code := range append(good, strings.Repeat("a", 20), strings.Repeat("a", 64), "0", "Zz9", "good-001", "good_001") {
			if !store.ValidShortCode(code) {
				t.Errorf("ValidShortCode(%q) = false", code)
			}
		}
		found, err := s.Redirects(ctx, append(append([]string{}, bad...), good...))
		if err != nil {
			t.Fatalf("Redirects with impossible codes among good ones: %v", err)
		}
		if len(found) != len(good) {
			t.Fatalf("Redirects found %d codes, want the %d good ones: %v", len(found), len(good), found)
		}
		for _, code := range good {
			if _, ok := found[code]; !ok {
				t.Errorf("Redirects lost %s", code)
			}
		}
	})
}

// TestShortCodeCheckUsesItsIndex: SQLite checks a chosen short code
// through the index on lower(short_code), which finds the codes that
// spell it, and not through the host's index, which holds every code of
// the base URL and made each creation lower all their short codes.
// SQLite only: it plans without statistics, where PostgreSQL plans from
// them.
func TestShortCodeCheckUsesItsIndex(t *testing.T) {
	s := storetest.Open(t)
	u := storetest.CreateUser(t, s, "plan@example.com")
	for i := range 3 {
		storetest.CreateDynamic(t, s, u.ID, fmt.Sprintf("plan%d", i))
	}
	rows, err := store.ReadDB(s).QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+store.ShortCodeTakenSQL, "Plan1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "dynamic_qr_codes_short_code_lower_idx") || strings.Contains(text, "host_code_idx") {
		t.Errorf("the short code check's plan:\n%s", text)
	}
}

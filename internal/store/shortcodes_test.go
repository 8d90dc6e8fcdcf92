package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// chosen returns an unsaved dynamic code of the user with the chosen short
// code on domain (nil: the base URL).
func chosen(userID int64, code string, domain *int64) *store.DynamicCode {
	d := storetest.NewDynamic(userID, code)
	d.ShortCodeChosen, d.DomainID = true, domain
	return d
}

// verifiedDomain claims and verifies name for the workspace, pointing here.
func verifiedDomain(t *testing.T, s *store.Store, ws int64, name string) int64 {
	t.Helper()
	ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: 1, Email: "a@example.com"})
	d := &store.Domain{Domain: name, Token: "t-" + name}
	now := time.Now()
	if err := s.CreateDomain(ctx, ws, d, 10, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordDomainCheck(ctx, ws, d.ID, "dns", "", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordDomainPointing(ctx, ws, d.ID, "", now); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

// oneRedirect is the redirect of the only live code with code.
func oneRedirect(ctx context.Context, s *store.Store, code string) (store.Redirect, error) {
	list, err := s.RedirectsByShortCode(ctx, code)
	if err != nil {
		return store.Redirect{}, err
	}
	if len(list) != 1 {
		return store.Redirect{}, fmt.Errorf("%d live codes have %q: %+v", len(list), code, list)
	}
	return list[0], nil
}

// Chosen short codes (issue 34 item 1) are unique per host without case:
// the base URL's, or one custom domain's, so two hosts may each have one.
// A random short code is the only code's on every host: no chosen code
// takes it, and none is drawn that any host has.
func TestChosenShortCodesPerHost(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := storetest.CreateUser(t, s, "alice@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		aws, bws := storetest.Personal(t, s, alice.ID), storetest.Personal(t, s, bob.ID)
		qa := verifiedDomain(t, s, aws, "qr.alice.example")
		qb := verifiedDomain(t, s, bws, "qr.bob.example")

		first := chosen(alice.ID, "Spring-Menu", nil)
		if err := s.CreateDynamicCode(ctx, first, 0); err != nil {
			t.Fatal(err)
		}
		got, err := s.DynamicCode(ctx, aws, first.ID)
		if err != nil || got.ShortCode != "Spring-Menu" || !got.ShortCodeChosen {
			t.Fatalf("read back: %+v, %v", got, err)
		}
		random := storetest.CreateDynamic(t, s, alice.ID, "abcdEFGH")
		if random.ShortCodeChosen {
			t.Error("a random code came back chosen")
		}
		for _, c := range []struct {
			who    int64
			code   string
			domain *int64
			taken  bool
		}{
			{alice.ID, "spring-menu", nil, true},  // the base host, another case
			{bob.ID, "SPRING-MENU", nil, true},    // the base host is everyone's
			{alice.ID, "ABCDefgh", nil, true},     // a random code's, without case
			{alice.ID, "abcdEFGH", &qa, true},     // a random code's exactly, on another host
			{alice.ID, "abcdefgh", &qa, false},    // another host, another case
			{alice.ID, "Spring-Menu", &qa, false}, // exactly the base host's, on another host
			{alice.ID, "spring-MENU", &qa, true},  // that host again, another case
			{bob.ID, "SPRING-menu", &qb, false},   // a third host
			{bob.ID, "spring-MENU", &qb, true},    // that host again
			{alice.ID, "Spring_Menu", nil, false}, // _ is not -
		} {
			taken, err := s.ShortCodeTaken(ctx, c.code, c.domain)
			if err != nil || taken != c.taken {
				t.Errorf("ShortCodeTaken(%q, %v) = %t, %v; want %t", c.code, c.domain, taken, err, c.taken)
			}
			err = s.CreateDynamicCode(ctx, chosen(c.who, c.code, c.domain), 0)
			if c.taken && !errors.Is(err, store.ErrConflict) || !c.taken && err != nil {
				t.Errorf("create %q on %v: %v, want taken=%t", c.code, c.domain, err, c.taken)
			}
		}
		// Another workspace's domain is not a host to create on.
		if err := s.CreateDynamicCode(ctx, chosen(alice.ID, "theirs", &qb), 0); err == nil {
			t.Error("a code was created on another workspace's domain")
		}
		// Scans find every host's code of an exact short code, oldest
		// first, each with its host.
		list, err := s.RedirectsByShortCode(ctx, "Spring-Menu")
		if err != nil || len(list) != 2 || list[0].ID != first.ID || list[0].DomainID != 0 || list[1].DomainID != qa {
			t.Errorf("redirects: %+v, %v", list, err)
		}
		batch, err := s.Redirects(ctx, []string{"Spring-Menu", "abcdEFGH"})
		if err != nil || len(batch["Spring-Menu"]) != 2 || batch["Spring-Menu"][1].DomainID != qa || len(batch["abcdEFGH"]) != 1 {
			t.Errorf("Redirects: %+v, %v", batch, err)
		}
		// A random short code is refused (drawn again by the caller) when
		// any host has it, chosen or not, deleted or not.
		for _, code := range []string{"abcdefgh", "Spring-Menu", "abcdEFGH"} {
			if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(bob.ID, code), 0); !errors.Is(err, store.ErrConflict) {
				t.Errorf("a random %q, which a host has: %v", code, err)
			}
		}
		if _, err := s.DeleteDynamicCode(ctx, aws, random.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateDynamicCode(ctx, storetest.NewDynamic(bob.ID, "abcdEFGH"), 0); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a deleted code's random short code drawn again: %v", err)
		}
		// The workspace's codes of a short code, one per host.
		mine, err := s.DynamicCodesByShortCode(ctx, aws, "Spring-Menu")
		if err != nil || len(mine) != 2 || store.CodeOnHost(mine, nil).ID != first.ID || store.CodeOnHost(mine, &qa) == nil ||
			store.CodeOnHost(mine, &qb) != nil {
			t.Errorf("DynamicCodesByShortCode: %+v, %v", mine, err)
		}
	})
}

// Twenty creations of one chosen short code at once, and twenty of one
// code in different cases: one wins each time, the others are ErrConflict.
func TestChosenShortCodeBurst(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var users []int64
		for i := range 4 {
			users = append(users, storetest.CreateUser(t, s, fmt.Sprintf("u%d@example.com", i)).ID)
		}
		for _, variant := range []func(i int) string{
			func(int) string { return "launch" },
			func(i int) string { // the same word in 20 cases
				b := []byte("burst-x")
				for k := range 5 {
					if i>>k&1 == 1 {
						b[k] -= 'a' - 'A'
					}
				}
				return string(b)
			},
		} {
			var wg sync.WaitGroup
			errs := make([]error, 20)
			for i := range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = s.CreateDynamicCode(ctx, chosen(users[i%len(users)], variant(i), nil), 0)
				}()
			}
			wg.Wait()
			won := 0
			for i, err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, store.ErrConflict):
					t.Errorf("creation %d (%s): %v", i, variant(i), err)
				}
			}
			if won != 1 {
				t.Errorf("%s: %d creations won, want 1: %v", variant(0), won, errs)
			}
		}
		var n int
		storetest.QueryRow(t, s, `SELECT COUNT(*) FROM dynamic_qr_codes WHERE lower(short_code) IN ('launch', 'burst-x')`, nil, &n)
		if n != 2 {
			t.Errorf("%d codes saved, want 2", n)
		}

		// Twenty creations of one code spread over two hosts (the base
		// URL's and a domain): one wins on each.
		ws := storetest.Personal(t, s, users[0])
		domain := verifiedDomain(t, s, ws, "qr.burst.example")
		var wg sync.WaitGroup
		errs := make([]error, 20)
		for i := range 20 {
			wg.Go(func() {
				d := chosen(users[0], "Spread", nil)
				if i%2 == 1 {
					d.DomainID = &domain
				}
				errs[i] = s.CreateDynamicCode(ctx, d, 0)
			})
		}
		wg.Wait()
		won := map[bool]int{}
		for i, err := range errs {
			switch {
			case err == nil:
				won[i%2 == 1]++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("creation %d: %v", i, err)
			}
		}
		if won[false] != 1 || won[true] != 1 {
			t.Errorf("%d won on the base host and %d on the domain, want 1 and 1: %v", won[false], won[true], errs)
		}
	})
}

// A short code changes only while its code has no scans; the old one
// stops answering at once.
func TestSetDynamicShortCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		alice := storetest.CreateUser(t, s, "alice@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		aws := storetest.Personal(t, s, alice.ID)
		d := storetest.CreateDynamic(t, s, alice.ID, "rand0001")
		other := storetest.CreateDynamic(t, s, bob.ID, "rand0002")
		storetest.CreateDynamic(t, s, bob.ID, "Taken")

		if _, err := s.SetDynamicShortCode(ctx, aws, other.ID, "mine", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's code: %v", err)
		}
		if _, err := s.SetDynamicShortCode(ctx, aws, d.ID, "taken", now); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a taken code: %v", err)
		}
		got, err := s.SetDynamicShortCode(ctx, aws, d.ID, "summer", now)
		if err != nil || got.ShortCode != "summer" || !got.ShortCodeChosen {
			t.Fatalf("change: %+v, %v", got, err)
		}
		if _, err := oneRedirect(ctx, s, "rand0001"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the old short code still answers: %v", err)
		}
		if r, err := oneRedirect(ctx, s, "summer"); err != nil || r.ID != d.ID {
			t.Errorf("the new one: %+v, %v", r, err)
		}
		// Its own code again, in another case: allowed, as it is its own.
		if got, err = s.SetDynamicShortCode(ctx, aws, d.ID, "Summer", now); err != nil || got.ShortCode != "Summer" {
			t.Fatalf("recase: %+v, %v", got, err)
		}
		if _, err := store.WriteDB(s).Exec(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, visitor_hash) VALUES ($1, $2, 'v')`,
			d.ID, now.UTC().Format("2006-01-02T15:04:05.000000Z")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetDynamicShortCode(ctx, aws, d.ID, "autumn", now); !errors.Is(err, store.ErrScanned) {
			t.Errorf("a scanned code's change: %v", err)
		}
		if _, err := s.SetDynamicShortCode(ctx, aws, d.ID, "Summer", now); err != nil {
			t.Errorf("setting a scanned code's own short code: %v", err)
		}
	})
}

// Migration 0040 rebuilds dynamic_qr_codes on SQLite (a wider short code)
// and widens it on PostgreSQL: every code keeps its id, scans, tags and
// search entry; the foreign keys hold again afterwards; ids go on.
func TestChosenShortCodeMigrationKeepsCodes(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			ctx := context.Background()
			url, dir := "", t.TempDir()
			if db == "postgres" {
				url = storetest.PostgresURL(t)
			}
			old, err := store.OpenUpTo(ctx, url, dir, 39)
			if err != nil {
				t.Fatal(err)
			}
			// Rows as that schema takes them: the store's code of today may
			// name columns later migrations add.
			w := store.WriteDB(old)
			var uid, ws, id int64
			if err := w.QueryRow(`INSERT INTO users (username, email) VALUES ('alice@example.com', 'alice@example.com') RETURNING id`).Scan(&uid); err != nil {
				t.Fatal(err)
			}
			if err := w.QueryRow(`INSERT INTO workspaces (name, personal_user_id) VALUES ('Personal', $1) RETURNING id`, uid).Scan(&ws); err != nil {
				t.Fatal(err)
			}
			if err := w.QueryRow(`INSERT INTO dynamic_qr_codes (user_id, workspace_id, name, short_code, destination, qr_type, search_text)
				VALUES ($1, $2, 'Spring menu', 'old00001', 'https://example.com/a', 'url', 'spring menu old00001') RETURNING id`, uid, ws).Scan(&id); err != nil {
				t.Fatal(err)
			}
			at := "2026-05-01T10:00:00.000000Z"
			for range 3 {
				if _, err := w.Exec(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, visitor_hash) VALUES ($1, $2, 'v')`, id, at); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Exec(`INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES ($1, 3, $2)`, id, at); err != nil {
				t.Fatal(err)
			}
			old.Close()

			s, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			d, err := s.DynamicCode(ctx, ws, id)
			if err != nil || d.ShortCode != "old00001" || d.ScanCount != 3 || d.ShortCodeChosen || d.Name != "Spring menu" {
				t.Fatalf("after the migration: %+v, %v", d, err)
			}
			var n int
			if err := store.WriteDB(s).QueryRow(`SELECT COUNT(*) FROM scan_events WHERE dynamic_qr_code_id = $1`, id).Scan(&n); err != nil || n != 3 {
				t.Errorf("%d scan events, want 3 (%v)", n, err)
			}
			if db == "sqlite" {
				var hits int64
				err := store.WriteDB(s).QueryRow(`SELECT rowid FROM dynamic_qr_codes_search WHERE dynamic_qr_codes_search MATCH 'spring'`).Scan(&hits)
				if err != nil || hits != id {
					t.Errorf("search finds %d, want %d (%v)", hits, id, err)
				}
			}
			// Foreign keys are on again: a scan count of no code is refused.
			if _, err := store.WriteDB(s).Exec(`INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES (999999, 1, $1)`, at); err == nil {
				t.Error("a scan count of no code was saved: foreign keys are off")
			}
			next := chosen(uid, strings.Repeat("x", 64), nil)
			next.WorkspaceID = ws
			if err := s.CreateDynamicCode(ctx, next, 0); err != nil || next.ID <= id {
				t.Errorf("a 64-character code after the migration: id %d, %v", next.ID, err)
			}
		})
	}
}

// Migration 0056 (short codes per host) rebuilds dynamic_qr_codes on
// SQLite and drops the UNIQUE on PostgreSQL: every code keeps its columns
// (chosen, domain, imported clicks), scans and search entry; foreign keys
// hold again; and the same short code may then be on two hosts, while a
// host still refuses one twice and a random code stays the only one's.
func TestShortCodesPerHostMigration(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			ctx := context.Background()
			url, dir := "", t.TempDir()
			if db == "postgres" {
				url = storetest.PostgresURL(t)
			}
			old, err := store.OpenUpTo(ctx, url, dir, 55)
			if err != nil {
				t.Fatal(err)
			}
			w := store.WriteDB(old)
			var uid, ws, domain, id int64
			if err := w.QueryRow(`INSERT INTO users (username, email) VALUES ('alice@example.com', 'alice@example.com') RETURNING id`).Scan(&uid); err != nil {
				t.Fatal(err)
			}
			if err := w.QueryRow(`INSERT INTO workspaces (name, personal_user_id) VALUES ('Personal', $1) RETURNING id`, uid).Scan(&ws); err != nil {
				t.Fatal(err)
			}
			at := "2026-05-01T10:00:00.000000Z"
			if err := w.QueryRow(`INSERT INTO workspace_domains (workspace_id, domain, token, method, verified_at, pointed_at, created_at)
				VALUES ($1, 'qr.alice.example', 't', 'dns', $2, $2, $2) RETURNING id`, ws, at).Scan(&domain); err != nil {
				t.Fatal(err)
			}
			if err := w.QueryRow(`INSERT INTO dynamic_qr_codes (user_id, workspace_id, name, short_code, destination, qr_type, search_text,
				short_code_chosen, imported_clicks, domain_id)
				VALUES ($1, $2, 'Menu', 'menu', 'https://example.com/a', 'url', 'menu', TRUE, 7, $3) RETURNING id`, uid, ws, domain).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Exec(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, visitor_hash) VALUES ($1, $2, 'v')`, id, at); err != nil {
				t.Fatal(err)
			}
			old.Close()

			s, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			d, err := s.DynamicCode(ctx, ws, id)
			if err != nil || d.ShortCode != "menu" || !d.ShortCodeChosen || d.ImportedClicks != 7 || d.DomainID == nil || *d.DomainID != domain {
				t.Fatalf("after the migration: %+v, %v", d, err)
			}
			var n int
			if err := store.WriteDB(s).QueryRow(`SELECT COUNT(*) FROM scan_events WHERE dynamic_qr_code_id = $1`, id).Scan(&n); err != nil || n != 1 {
				t.Errorf("%d scan events, want 1 (%v)", n, err)
			}
			if db == "sqlite" {
				var hit int64
				if err := store.WriteDB(s).QueryRow(`SELECT rowid FROM dynamic_qr_codes_search WHERE dynamic_qr_codes_search MATCH 'menu'`).Scan(&hit); err != nil || hit != id {
					t.Errorf("search finds %d, want %d (%v)", hit, id, err)
				}
			}
			if _, err := store.WriteDB(s).Exec(`INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES (999999, 1, $1)`, at); err == nil {
				t.Error("a scan count of no code was saved: foreign keys are off")
			}
			base := chosen(uid, "menu", nil)
			base.WorkspaceID = ws
			if err := s.CreateDynamicCode(ctx, base, 0); err != nil || base.ID <= id {
				t.Errorf("menu on the base URL beside the domain's: id %d, %v", base.ID, err)
			}
			// The indexes themselves, past the store's checks.
			for _, c := range []struct {
				code, chosen string
				domain       any
			}{{"menu", "TRUE", nil}, {"menu", "FALSE", domain}, {"rand0001", "FALSE", nil}, {"rand0001", "FALSE", domain}} {
				_, err := store.WriteDB(s).Exec(`INSERT INTO dynamic_qr_codes (user_id, workspace_id, short_code, destination, qr_type, short_code_chosen, domain_id)
					VALUES ($1, $2, $3, 'https://example.com/x', 'url', `+c.chosen+`, $4)`, uid, ws, c.code, c.domain)
				if first := c.code == "rand0001" && c.domain == nil; first != (err == nil) {
					t.Errorf("insert %s (chosen %s) on %v: %v", c.code, c.chosen, c.domain, err)
				}
			}
		})
	}
}

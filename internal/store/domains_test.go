package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Two workspaces may claim one domain; the first to prove it has it, the
// other's claim can then never be verified, and no one else may claim it;
// deleting the winner's workspace frees it.
func TestDomainClaims(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: 1, Email: "a@example.com"})
		now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
		alice := storetest.CreateUser(t, st, "alice@example.com")
		bob := storetest.CreateUser(t, st, "bob@example.com")
		a, err := st.CreateWorkspace(ctx, alice.ID, 1, "Shop", now)
		if err != nil {
			t.Fatal(err)
		}
		b := storetest.Personal(t, st, bob.ID)

		da := &store.Domain{Domain: "qr.shop.example", Token: "ta"}
		db := &store.Domain{Domain: "qr.shop.example", Token: "tb"}
		if err := st.CreateDomain(ctx, a.ID, da, 10, now); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateDomain(ctx, b, db, 10, now); err != nil {
			t.Fatalf("a pending claim blocked another workspace's: %v", err)
		}
		if err := st.CreateDomain(ctx, b, &store.Domain{Domain: "qr.shop.example", Token: "x"}, 10, now); !errors.Is(err, store.ErrConflict) {
			t.Errorf("the same workspace's second claim: %v", err)
		}

		// A failed check is kept, and verifies nothing.
		got, err := st.RecordDomainCheck(ctx, b, db.ID, "", "no TXT record", now)
		if err != nil || got.VerifiedAt != nil || got.LastError != "no TXT record" || got.LastCheckedAt == nil {
			t.Fatalf("failed check: %+v, %v", got, err)
		}
		if _, err := st.RecordDomainCheck(ctx, b, da.ID, "dns", "", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("checking another workspace's domain: %v", err)
		}
		got, err = st.RecordDomainCheck(ctx, a.ID, da.ID, "dns", "", now)
		if err != nil || got.VerifiedAt == nil || got.Method != "dns" || got.LastError != "" {
			t.Fatalf("verified: %+v, %v", got, err)
		}
		if _, err := st.RecordDomainCheck(ctx, b, db.ID, "http", "", now); !errors.Is(err, store.ErrDomainTaken) {
			t.Errorf("second verification of one domain: %v", err)
		}
		if err := st.CreateDomain(ctx, alice.ID+bob.ID+100, &store.Domain{Domain: "qr.shop.example", Token: "c"}, 10, now); err == nil {
			t.Error("a claim by an unknown workspace was saved")
		}
		carol := storetest.CreateUser(t, st, "carol@example.com")
		if err := st.CreateDomain(ctx, storetest.Personal(t, st, carol.ID), &store.Domain{Domain: "qr.shop.example", Token: "c"}, 10, now); !errors.Is(err, store.ErrDomainTaken) {
			t.Errorf("claiming a domain verified elsewhere: %v", err)
		}
		if v, err := st.VerifiedDomain(ctx, "qr.shop.example"); err != nil || v.WorkspaceID != a.ID {
			t.Errorf("VerifiedDomain: %+v, %v", v, err)
		}
		list, err := st.Domains(ctx, b)
		if err != nil || len(list) != 1 || list[0].VerifiedAt != nil {
			t.Errorf("b's domains: %+v, %v", list, err)
		}

		// The winner's workspace goes: the domain is free.
		if err := st.DeleteWorkspace(ctx, a.ID, now); err != nil {
			t.Fatal(err)
		}
		if _, err := st.VerifiedDomain(ctx, "qr.shop.example"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a deleted workspace's domain still serves: %v", err)
		}
		if got, err := st.RecordDomainCheck(ctx, b, db.ID, "http", "", now); err != nil || got.Method != "http" {
			t.Errorf("verifying a released domain: %+v, %v", got, err)
		}
		var entries int
		storetest.QueryRow(t, st, `SELECT count(*) FROM audit_log WHERE action IN ('domain.added', 'domain.verified')`, nil, &entries)
		if entries != 4 {
			t.Errorf("audit entries: %d, want 4 (two claims, two verifications)", entries)
		}
	})
}

// A workspace's claims are bounded, also when they arrive at once.
func TestDomainLimitUnderConcurrency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		ws := storetest.Personal(t, st, storetest.CreateUser(t, st, "alice@example.com").ID)
		const limit = 3
		var wg sync.WaitGroup
		errs := make(chan error, 12)
		for i := range 12 {
			wg.Go(func() {
				errs <- st.CreateDomain(ctx, ws, &store.Domain{Domain: fmt.Sprintf("d%d.example.com", i), Token: "t"}, limit, time.Now())
			})
		}
		wg.Wait()
		close(errs)
		ok := 0
		for err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, store.ErrLimit):
				t.Error(err)
			}
		}
		if n := storetest.Count(t, st, "workspace_domains"); ok != limit || n != limit {
			t.Errorf("saved %d (rows %d), want %d", ok, n, limit)
		}
	})
}

// A code prints only a verified domain of its own workspace that points
// here; a domain that live codes print cannot be deleted; the redirect
// knows the code's workspace.
func TestCodeDomain(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Now()
		alice := storetest.CreateUser(t, st, "alice@example.com")
		bob := storetest.CreateUser(t, st, "bob@example.com")
		wa, wb := storetest.Personal(t, st, alice.ID), storetest.Personal(t, st, bob.ID)
		verified := &store.Domain{Domain: "go.alice.example", Token: "t1"}
		pending := &store.Domain{Domain: "later.alice.example", Token: "t2"}
		bobs := &store.Domain{Domain: "go.bob.example", Token: "t3"}
		for _, c := range []struct {
			ws int64
			d  *store.Domain
		}{{wa, verified}, {wa, pending}, {wb, bobs}} {
			if err := st.CreateDomain(ctx, c.ws, c.d, 10, now); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			ws int64
			d  *store.Domain
		}{{wa, verified}, {wb, bobs}} {
			if _, err := st.RecordDomainCheck(ctx, c.ws, c.d.ID, "dns", "", now); err != nil {
				t.Fatal(err)
			}
		}

		// Verified, but not seen pointing here yet; and a pending domain
		// has no pointing to record.
		if _, err := st.RecordDomainPointing(ctx, wa, pending.ID, "", now); !errors.Is(err, store.ErrDomainUnverified) {
			t.Errorf("pointing of a pending domain: %v", err)
		}
		if _, err := st.RecordDomainPointing(ctx, wb, verified.ID, "", now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("pointing of another workspace's domain: %v", err)
		}
		if got, err := st.RecordDomainPointing(ctx, wa, verified.ID, "no CNAME", now); err != nil || got.PointedAt != nil ||
			got.PointError != "no CNAME" || got.PointCheckedAt == nil {
			t.Fatalf("not pointing: %+v, %v", got, err)
		}
		for _, c := range []struct {
			domain int64
			want   error
		}{{pending.ID, store.ErrDomainUnverified}, {bobs.ID, store.ErrNotFound}, {verified.ID, store.ErrDomainNotPointing}} {
			d := storetest.NewDynamic(alice.ID, fmt.Sprintf("dom%d", c.domain))
			d.DomainID = &c.domain
			if err := st.CreateDynamicCode(ctx, d, 0); !errors.Is(err, c.want) {
				t.Errorf("create with domain %d: %v, want %v", c.domain, err, c.want)
			}
		}
		if got, err := st.RecordDomainPointing(ctx, wa, verified.ID, "", now); err != nil || got.PointedAt == nil || got.PointError != "" {
			t.Fatalf("pointing: %+v, %v", got, err)
		}
		d := storetest.NewDynamic(alice.ID, "domok")
		d.DomainID = &verified.ID
		if err := st.CreateDynamicCode(ctx, d, 0); err != nil {
			t.Fatal(err)
		}
		got, err := st.DynamicCode(ctx, wa, d.ID)
		if err != nil || got.Domain != "go.alice.example" || got.DomainID == nil || *got.DomainID != verified.ID {
			t.Fatalf("saved code: %+v, %v", got, err)
		}
		if r, err := oneRedirect(ctx, st, "domok"); err != nil || r.WorkspaceID != wa {
			t.Errorf("redirect: %+v, %v", r, err)
		}
		if _, err := st.SetDynamicDomain(ctx, wa, d.ID, &bobs.ID, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("moving to another workspace's domain: %v", err)
		}
		if _, err := st.SetDynamicDomain(ctx, wa, d.ID, &pending.ID, now); !errors.Is(err, store.ErrDomainUnverified) {
			t.Errorf("moving to a pending domain: %v", err)
		}
		if _, err := st.DeleteDomain(ctx, wa, verified.ID); !errors.Is(err, store.ErrDomainInUse) {
			t.Errorf("deleting a printed domain: %v", err)
		}
		if _, err := st.DeleteDomain(ctx, wb, verified.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleting another workspace's domain: %v", err)
		}
		if got, err := st.SetDynamicDomain(ctx, wa, d.ID, nil, now); err != nil || got.Domain != "" || got.DomainID != nil {
			t.Fatalf("back to the base URL: %+v, %v", got, err)
		}
		// An import on the domain: open, it keeps the domain; finished,
		// it forgets it (its foreign key refused the deletion).
		job := &store.ImportJob{WorkspaceID: wa, UserID: alice.ID, Source: "csv", DomainID: &verified.ID}
		if err := st.CreateImportJob(ctx, job, []store.ImportItem{{Row: 2, Destination: "https://example.com/i", Status: store.ImportPending}}, now); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DeleteDomain(ctx, wa, verified.ID); !errors.Is(err, store.ErrDomainInUse) {
			t.Errorf("deleting a domain an open import saves codes on: %v", err)
		}
		if err := st.FinishImportJob(ctx, job.ID, store.ImportFailed, "stopped", now); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DeleteDomain(ctx, wa, verified.ID); err != nil {
			t.Errorf("deleting an unused domain: %v", err)
		}
		if got, err := st.ImportJob(ctx, wa, job.ID); err != nil || got.DomainID != nil {
			t.Errorf("the import after its domain went: %+v, %v", got, err)
		}
		if list, _ := st.Domains(ctx, wa); len(list) != 1 || list[0].ID != pending.ID {
			t.Errorf("alice's domains: %+v", list)
		}
	})
}

// Migration 0047 makes the next re-check of each domain verified before
// the pointing check due once it is a day past its verification, so that
// the pointing check follows within a poll after an upgrade instead of a
// day later; a domain that missed its proof keeps its retry time.
func TestPointingCheckDueAfterUpgrade(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			ctx := context.Background()
			url, dir := "", t.TempDir()
			if db == "postgres" {
				url = storetest.PostgresURL(t)
			}
			old, err := store.OpenUpTo(ctx, url, dir, 46)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			at := func(ago time.Duration) string { return now.Add(-ago).Format("2006-01-02T15:04:05.000000Z") }
			w := store.WriteDB(old)
			var ws int64
			if err := w.QueryRow(`INSERT INTO workspaces (name) VALUES ('Acme') RETURNING id`).Scan(&ws); err != nil {
				t.Fatal(err)
			}
			for _, d := range []struct {
				domain              string
				verified, rechecked time.Duration
				missed              bool
			}{
				{"old.example", 240 * time.Hour, time.Hour, false}, // checked an hour ago: due now
				{"new.example", 2 * time.Hour, 0, false},           // verified two hours ago: not yet a day
				{"missed.example", 240 * time.Hour, time.Hour, true},
			} {
				missed := any(nil)
				if d.missed {
					missed = at(time.Hour)
				}
				rechecked := any(nil)
				if d.rechecked > 0 {
					rechecked = at(d.rechecked)
				}
				if _, err := w.Exec(`INSERT INTO workspace_domains (workspace_id, domain, token, method, verified_at, created_at, rechecked_at, missed_at)
					VALUES ($1, $2, 't', 'dns', $3, $3, $4, $5)`, ws, d.domain, at(d.verified), rechecked, missed); err != nil {
					t.Fatal(err)
				}
			}
			old.Close()

			s, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			due, err := s.ClaimDomainRechecks(ctx, now, 24*time.Hour, 3*time.Hour, 10)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range due {
				names = append(names, d.Domain)
			}
			if fmt.Sprint(names) != "[old.example]" {
				t.Errorf("due after the upgrade: %v, want [old.example]", names)
			}
		})
	}
}

package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// The migration to workspaces (0017) keeps every existing user's work: a
// database as the binary before it left it, with codes, scans, uploads,
// keys, bulk jobs, products, a subscription and rollups, comes out with all
// of it in each user's personal workspace.
func TestMigrationKeepsWork(t *testing.T) {
	for _, db := range []struct{ name, url string }{{"sqlite", ""}, {"postgres", "pg"}} {
		t.Run(db.name, func(t *testing.T) {
			ctx := context.Background()
			url, dir := "", t.TempDir()
			if db.url != "" {
				url = storetest.PostgresURL(t)
			}
			old, err := store.OpenUpTo(ctx, url, dir, 16)
			if err != nil {
				t.Fatal(err)
			}
			at := "2026-05-01T10:00:00.000000Z"
			w := store.WriteDB(old)
			exec := func(q string, args ...any) int64 {
				t.Helper()
				var id int64
				if err := w.QueryRow(q+` RETURNING id`, args...).Scan(&id); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				return id
			}
			run := func(q string, args ...any) {
				t.Helper()
				if _, err := w.Exec(q, args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			alice := exec(`INSERT INTO users (username, email, subscription_status, stripe_customer_id, trial_activated) VALUES ('alice@example.com', 'alice@example.com', 'active', 'cus_a', TRUE)`)
			gone := exec(`INSERT INTO users (username, email, is_deleted) VALUES ('gone@example.com', 'gone@example.com', TRUE)`)
			static := exec(`INSERT INTO qr_codes (user_id, name) VALUES ($1, 'Flyer')`, alice)
			dyn := exec(`INSERT INTO dynamic_qr_codes (user_id, name, short_code, destination, qr_type) VALUES ($1, 'Menu', 'mig1', 'https://example.com/a', 'url')`, alice)
			goneDyn := exec(`INSERT INTO dynamic_qr_codes (user_id, name, short_code, destination, qr_type) VALUES ($1, 'Old', 'mig2', 'https://example.com/b', 'url')`, gone)
			for range 3 {
				exec(`INSERT INTO scan_events (dynamic_qr_code_id, scanned_at, visitor_hash) VALUES ($1, $2, 'v')`, dyn, at)
			}
			run(`INSERT INTO scan_counts (dynamic_qr_code_id, scans, last_scanned_at) VALUES ($1, 3, $2)`, dyn, at)
			run(`INSERT INTO scan_user_days (user_id, day, is_bot, scans, tally) VALUES ($1, $2, FALSE, 3, '{}')`, alice, "2026-05-01T00:00:00.000000Z")
			run(`INSERT INTO scan_user_visitors (user_id, day, is_bot, visitor_hash, codes) VALUES ($1, $2, FALSE, 'v', 1)`, alice, "2026-05-01T00:00:00.000000Z")
			run(`INSERT INTO rollup_versions (user_id, version) VALUES ($1, 4)`, alice)
			run(`INSERT INTO blobs (id, owner_id, kind, content_type, size, sha256, data) VALUES (77, $1, 'logo', 'image/png', 5, 'x', $2)`, alice, []byte("12345"))
			key := exec(`INSERT INTO api_keys (user_id, name, key_hash, prefix, last4) VALUES ($1, 'shop', 'hash-mig', 'sq_x', 'abcd')`, alice)
			job := exec(`INSERT INTO bulk_jobs (user_id, file_sha256, total, created_at, updated_at) VALUES ($1, 'f', 1, $2, $2)`, alice, at)
			product := exec(`INSERT INTO payment_products (user_id, product_name, product_price) VALUES ($1, 'Tea', 450)`, alice)
			old.Close()

			s, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ws, err := s.PersonalWorkspace(ctx, alice)
			if err != nil {
				t.Fatal(err)
			}
			if !ws.Personal || ws.Role != store.RoleOwner || ws.SubscriptionStatus != "active" || ws.StripeCustomerID != "cus_a" || !ws.TrialActivated {
				t.Errorf("alice's workspace = %+v", ws)
			}
			if q, err := s.QRCode(ctx, ws.ID, static); err != nil || q.Name != "Flyer" || q.UserID != alice {
				t.Errorf("static code = %+v, %v", q, err)
			}
			d, err := s.DynamicCode(ctx, ws.ID, dyn)
			if err != nil || d.ScanCount != 3 || d.WorkspaceID != ws.ID {
				t.Errorf("dynamic code = %+v, %v", d, err)
			}
			events := 0
			if err := s.ScanEvents(ctx, ws.ID, dyn, func(*store.ScanEvent) error { events++; return nil }); err != nil || events != 3 {
				t.Errorf("scan events = %d, %v", events, err)
			}
			var days, visitors, version int64
			err = store.ReadDB(s).QueryRow(`SELECT
				(SELECT count(*) FROM scan_workspace_days WHERE workspace_id = $1),
				(SELECT count(*) FROM scan_workspace_visitors WHERE workspace_id = $1),
				(SELECT version FROM workspace_rollup_versions WHERE workspace_id = $1)`, ws.ID).Scan(&days, &visitors, &version)
			if err != nil || days != 1 || visitors != 1 || version != 4 {
				t.Errorf("rollups moved: %d days, %d visitors, version %d, %v", days, visitors, version, err)
			}
			if r, err := oneRedirect(ctx, s, "mig1"); err != nil || r.Destination != "https://example.com/a" {
				t.Errorf("alice's code redirects: %+v, %v", r, err)
			}
			if _, err := oneRedirect(ctx, s, "mig2"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("a deleted account's code redirects: %v", err)
			}
			if goneWS, err := s.PersonalWorkspace(ctx, gone); err == nil {
				t.Errorf("a deleted account's workspace is live: %+v", goneWS)
			}
			var goneOwner int64
			if err := store.ReadDB(s).QueryRow(`SELECT w.personal_user_id FROM dynamic_qr_codes d JOIN workspaces w ON w.id = d.workspace_id WHERE d.id = $1`, goneDyn).Scan(&goneOwner); err != nil || goneOwner != gone {
				t.Errorf("the deleted account's code is in workspace of %d, %v", goneOwner, err)
			}
			if used, err := s.BlobBytes(ctx, ws.ID); err != nil || used != 5 {
				t.Errorf("uploads: %d bytes, %v", used, err)
			}
			if keys, err := s.APIKeys(ctx, ws.ID); err != nil || len(keys) != 1 || keys[0].ID != key {
				t.Errorf("keys = %v, %v", keys, err)
			}
			if a, err := s.APIKeyAccess(ctx, "hash-mig"); err != nil || a.Workspace.ID != ws.ID || a.User.ID != alice {
				t.Errorf("key access = %+v, %v", a, err)
			}
			if j, err := s.BulkJob(ctx, ws.ID, job); err != nil || j.UserID != alice {
				t.Errorf("bulk job = %+v, %v", j, err)
			}
			if p, err := s.PaymentProduct(ctx, product); err != nil || p.WorkspaceID == nil || *p.WorkspaceID != ws.ID {
				t.Errorf("product = %+v, %v", p, err)
			}
		})
	}
}

// New accounts get their personal workspace, owned by them.
func TestPersonalWorkspace(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, s, "p@example.com")
		list, err := s.Workspaces(ctx, u.ID)
		if err != nil || len(list) != 1 || !list[0].Personal || list[0].Role != store.RoleOwner {
			t.Fatalf("workspaces = %+v, %v", list, err)
		}
		d := storetest.CreateDynamic(t, s, u.ID, "pers1")
		if d.WorkspaceID != list[0].ID {
			t.Errorf("code filed in %d, want the personal workspace %d", d.WorkspaceID, list[0].ID)
		}
	})
}

// members builds a team of owner, plus one member per given role.
func team(t *testing.T, s *store.Store, roles ...string) (ws int64, owner *store.User, members []*store.User) {
	t.Helper()
	ctx := context.Background()
	owner = storetest.CreateUser(t, s, "owner@example.com")
	w, err := s.CreateWorkspace(ctx, owner.ID, 1, "Team", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for i, role := range roles {
		m := storetest.CreateUser(t, s, role+string(rune('a'+i))+"@example.com")
		store.WriteDB(s).Exec(`UPDATE users SET email_verified = TRUE WHERE id = $1`, m.ID)
		m.EmailVerified = true
		inv := &store.Invitation{WorkspaceID: w.ID, Email: m.Username, Role: role, CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
		if err := s.CreateInvitation(ctx, inv, "tok-"+m.Username); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptInvitation(ctx, "tok-"+m.Username, m, time.Now()); err != nil {
			t.Fatal(err)
		}
		members = append(members, m)
	}
	return w.ID, owner, members
}

// An invitation accepted by another address is refused and stays usable
// by its addressee, once; accepting it confirms an unconfirmed address,
// which the mailed token proves.
func TestInvitationOnlyForItsAddress(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws, _, _ := team(t, s)
		invited := storetest.CreateUser(t, s, "invited@example.com")
		other := storetest.CreateUser(t, s, "other@example.com")
		inv := &store.Invitation{WorkspaceID: ws, Email: "invited@example.com", Role: store.RoleEditor, CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
		if err := s.CreateInvitation(ctx, inv, "tok"); err != nil {
			t.Fatal(err)
		}
		other.EmailVerified = true
		if _, err := s.AcceptInvitation(ctx, "tok", other, time.Now()); !errors.Is(err, store.ErrWrongInvitee) {
			t.Fatalf("another address accepts: %v", err)
		}
		if _, err := s.MemberWorkspace(ctx, other.ID, ws); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the refused user became a member: %v", err)
		}
		if _, err := s.AcceptInvitation(ctx, "tok", invited, time.Now().Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an expired invitation accepted: %v", err)
		}
		if invited.EmailVerified {
			t.Fatal("a new user starts confirmed")
		}
		if got, err := s.AcceptInvitation(ctx, "tok", invited, time.Now()); err != nil || got != ws || !invited.EmailVerified {
			t.Fatalf("accept = %d, %v (confirmed %t)", got, err, invited.EmailVerified)
		}
		if u, err := s.User(ctx, invited.ID); err != nil || !u.EmailVerified {
			t.Fatalf("the invited address is not confirmed: %+v, %v", u, err)
		}
		if w, err := s.MemberWorkspace(ctx, invited.ID, ws); err != nil || w.Role != store.RoleEditor {
			t.Fatalf("member = %+v, %v", w, err)
		}
		if _, err := s.AcceptInvitation(ctx, "tok", invited, time.Now()); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the token worked twice: %v", err)
		}
	})
}

// A member's address or one with a pending invitation is not invited
// again (ignoring case); an expired invitation does not count.
func TestInvitationNotTwice(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws, owner, members := team(t, s, store.RoleViewer)
		now := time.Now()
		invite := func(email, tok string, at time.Time) error {
			return s.CreateInvitation(ctx, &store.Invitation{WorkspaceID: ws, Email: email, Role: store.RoleEditor, CreatedAt: at, ExpiresAt: at.Add(time.Hour)}, tok)
		}
		for _, m := range append(members, owner) {
			if err := invite(strings.ToUpper(m.Username), "tok-again-"+m.Username, now); !errors.Is(err, store.ErrAlreadyMember) {
				t.Fatalf("inviting member %s: %v", m.Username, err)
			}
		}
		if err := invite("new@example.com", "tok-1", now); err != nil {
			t.Fatal(err)
		}
		var again *store.AlreadyInvitedError
		if err := invite("New@Example.com", "tok-2", now); !errors.As(err, &again) || again.Role != store.RoleEditor {
			t.Fatalf("inviting twice: %v", err)
		}
		if err := invite("new@example.com", "tok-3", now.Add(2*time.Hour)); err != nil {
			t.Fatalf("after the first expired: %v", err)
		}
		// Ten invitations of one address at once: one is made.
		var made atomic.Int32
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				err := invite("burst@example.com", fmt.Sprint("tok-burst-", i), now)
				switch {
				case err == nil:
					made.Add(1)
				case !errors.As(err, new(*store.AlreadyInvitedError)):
					t.Errorf("burst: %v", err)
				}
			})
		}
		wg.Wait()
		if made.Load() != 1 {
			t.Errorf("%d invitations made of one address at once, want 1", made.Load())
		}
	})
}

// A workspace keeps an owner: the last one can neither be demoted nor
// removed, also when owners demote each other at the same time.
func TestLastOwnerStays(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws, owner, m := team(t, s, store.RoleOwner, store.RoleEditor)
		all := func(string) bool { return true }
		if err := s.RemoveMember(ctx, ws, m[0].ID, all); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMemberRole(ctx, ws, owner.ID, store.RoleAdmin, all); !errors.Is(err, store.ErrLastOwner) {
			t.Fatalf("demoting the last owner: %v", err)
		}
		if err := s.RemoveMember(ctx, ws, owner.ID, all); !errors.Is(err, store.ErrLastOwner) {
			t.Fatalf("removing the last owner: %v", err)
		}
		// Two owners demote each other, many times over, at once.
		if err := s.SetMemberRole(ctx, ws, m[1].ID, store.RoleOwner, all); err != nil {
			t.Fatal(err)
		}
		for range 10 {
			var wg sync.WaitGroup
			for _, id := range []int64{owner.ID, m[1].ID} {
				wg.Go(func() {
					err := s.SetMemberRole(ctx, ws, id, store.RoleViewer, all)
					if err != nil && !errors.Is(err, store.ErrLastOwner) {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			owners := 0
			members, err := s.Members(ctx, ws)
			if err != nil {
				t.Fatal(err)
			}
			for _, mem := range members {
				if mem.Role == store.RoleOwner {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("%d owners after concurrent demotions", owners)
			}
			for _, mem := range members {
				if mem.Role != store.RoleOwner {
					if err := s.SetMemberRole(ctx, ws, mem.UserID, store.RoleOwner, all); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	})
}

// A member who deletes their account leaves the team's codes working; the
// last owner's departure passes the workspace on.
func TestDepartureKeepsCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ws, owner, m := team(t, s, store.RoleEditor)
		d := storetest.NewDynamic(owner.ID, "team1")
		d.WorkspaceID = ws
		if err := s.CreateDynamicCode(ctx, d, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.SoftDeleteUser(ctx, owner.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := oneRedirect(ctx, s, "team1"); err != nil {
			t.Fatalf("the team's code stopped: %v", err)
		}
		if w, err := s.MemberWorkspace(ctx, m[0].ID, ws); err != nil || w.Role != store.RoleOwner {
			t.Fatalf("the remaining member = %+v, %v; want the owner", w, err)
		}
	})
}

// Every change records who made it, in its transaction.
func TestAuditActor(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ws, owner, m := team(t, s, store.RoleEditor)
		ctx := store.WithActor(context.Background(), store.Actor{Type: "user", ID: owner.ID, Email: owner.Username})
		if err := s.SetMemberRole(ctx, ws, m[0].ID, store.RoleViewer, func(string) bool { return true }); err != nil {
			t.Fatal(err)
		}
		list, err := s.AuditLog(ctx, ws, 0, 10)
		if err != nil || len(list) == 0 {
			t.Fatalf("audit log = %v, %v", list, err)
		}
		e := list[0]
		if e.Action != "member.role_changed" || e.Actor.ID != owner.ID || e.Target.ID != m[0].ID ||
			e.Details != `{"role":{"after":"viewer","before":"editor"}}` {
			t.Errorf("entry = %+v", e)
		}
		// A refused change records nothing.
		before := len(list)
		s.SetMemberRole(ctx, ws, owner.ID, store.RoleViewer, func(string) bool { return true })
		if list, _ := s.AuditLog(ctx, ws, 0, 10); len(list) != before {
			t.Errorf("a refused change was logged: %d entries, had %d", len(list), before)
		}
	})
}

// The test databases can have the trigram index; CI's PostgreSQL must.
func TestCodeSearchIndexed(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		if ok, err := s.CodeSearchIndexed(context.Background()); err != nil || !ok {
			t.Errorf("CodeSearchIndexed = %v, %v", ok, err)
		}
	})
}

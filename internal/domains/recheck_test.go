package domains_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/domains/domaintest"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
	"github.com/squarely/squarely/internal/testenv"
)

type env struct {
	t     *testing.T
	st    *store.Store
	dns   *domaintest.DNS
	clock *testenv.Clock
	ws    int64
}

func newEnv(t *testing.T, st *store.Store) *env {
	e := &env{t: t, st: st, dns: domaintest.StartDNS(t), clock: testenv.NewClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))}
	owner := storetest.CreateUser(t, st, "owner@example.com")
	e.ws = storetest.Personal(t, st, owner.ID)
	return e
}

// addMember puts a new user into the workspace with role.
func (e *env) addMember(email, role string) {
	u := storetest.CreateUser(e.t, e.st, email)
	var id int64
	storetest.QueryRow(e.t, e.st, `INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
		VALUES ($1, $2, $3, $4) RETURNING user_id`, []any{e.ws, u.ID, role, "2026-01-01T00:00:00.000000Z"}, &id)
}

// domain adds host to the workspace, with its TXT record published, and
// verifies it now when verified.
func (e *env) domain(host string, verified bool) *store.Domain {
	e.t.Helper()
	ctx := context.Background()
	d := &store.Domain{Domain: host, Token: "tok" + strings.ReplaceAll(host, ".", "")}
	if err := e.st.CreateDomain(ctx, e.ws, d, 100, e.clock.Now()); err != nil {
		e.t.Fatal(err)
	}
	e.publish(d)
	if verified {
		if _, err := e.st.RecordDomainCheck(ctx, e.ws, d.ID, "dns", "", e.clock.Now()); err != nil {
			e.t.Fatal(err)
		}
	}
	return d
}

func (e *env) publish(d *store.Domain) {
	e.dns.Set(map[string]string{domains.VerifyLabel + d.Domain: domains.VerifyPrefix + d.Token}, nil)
}

func (e *env) runner(st *store.Store) *domains.Runner {
	v := domains.NewVerifier(e.dns.Addr, "9", true) // nothing answers the HTTP token on port 9: the TXT record decides
	return domains.NewRunner(domains.RunnerOptions{Store: st, Verifier: v, BaseURL: "https://squarely.example",
		Logger: slog.New(slog.DiscardHandler), Now: e.clock.Now, Batch: 3})
}

// pass moves the clock by d and makes a pass.
func (e *env) pass(r *domains.Runner, d time.Duration) {
	e.t.Helper()
	e.clock.Add(d)
	if err := r.Pass(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) get(id int64) *store.Domain {
	e.t.Helper()
	d, err := e.st.Domain(context.Background(), e.ws, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// mails takes the outbox's queued mail.
func (e *env) mails() []*store.QueuedMail {
	e.t.Helper()
	var list []*store.QueuedMail
	for {
		m, err := e.st.ClaimQueuedMail(context.Background())
		if err != nil {
			return list
		}
		if err := e.st.FinishQueuedMail(context.Background(), m.ID, true); err != nil {
			e.t.Fatal(err)
		}
		list = append(list, m)
	}
}

func recipients(list []*store.QueuedMail) []string {
	var to []string
	for _, m := range list {
		to = append(to, m.To)
	}
	return to
}

// A verified domain is re-checked a day after its verification or last
// check; a first miss only notes it and brings the next check 3 hours
// nearer; a second miss marks it lost and mails the owners and admins
// once (not editors); later misses mail nothing; the proof back restores
// it; a new loss mails again. Pending domains are never re-checked.
func TestRecheckLostAndRestored(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		e.addMember("admin@example.com", store.RoleAdmin)
		e.addMember("editor@example.com", store.RoleEditor)
		d := e.domain("qr.example.com", true)
		pending := e.domain("pending.example.com", false)
		verifiedAt := e.clock.Now()
		r := e.runner(st)

		e.pass(r, 23*time.Hour)
		if got := e.get(d.ID); got.LastCheckedAt == nil || !got.LastCheckedAt.Equal(verifiedAt) {
			t.Fatalf("checked before it was due: %v", got.LastCheckedAt)
		}
		e.pass(r, time.Hour) // +24h
		if got := e.get(d.ID); !got.LastCheckedAt.Equal(e.clock.Now()) || got.LostAt != nil || got.LastError != "" {
			t.Fatalf("after the daily check: %+v", got)
		}
		if n := e.dns.AskedTXT(domains.VerifyLabel + pending.Domain); n != 0 {
			t.Fatalf("pending domain asked %d times", n)
		}

		e.dns.Delete(domains.VerifyLabel + d.Domain)
		e.pass(r, 24*time.Hour) // +48h: first miss
		if got := e.get(d.ID); got.LostAt != nil || !strings.Contains(got.LastError, "no TXT record") {
			t.Fatalf("after one miss: %+v", got)
		}
		if m := e.mails(); len(m) != 0 {
			t.Fatalf("mailed after one miss: %v", recipients(m))
		}
		missedAt := e.clock.Now()
		e.pass(r, 2*time.Hour) // +50h: not due yet
		if got := e.get(d.ID); !got.LastCheckedAt.Equal(missedAt) {
			t.Fatalf("re-checked 2 hours after a miss")
		}
		e.pass(r, time.Hour) // +51h: second miss
		lost := e.get(d.ID)
		if lost.LostAt == nil || !lost.LostAt.Equal(e.clock.Now()) || lost.VerifiedAt == nil {
			t.Fatalf("after two misses: %+v", lost)
		}
		m := e.mails()
		if to := recipients(m); strings.Join(to, ",") != "owner@example.com,admin@example.com" {
			t.Fatalf("lost mail went to %v", to)
		}
		var workspace string
		storetest.QueryRow(t, st, `SELECT name FROM workspaces WHERE id = $1`, []any{e.ws}, &workspace)
		if m[0].Template != store.DomainLostMail || m[0].Fields["Workspace"] != workspace || m[0].Fields["Domain"] != d.Domain ||
			m[0].Fields["TXTValue"] != domains.VerifyPrefix+d.Token {
			t.Fatalf("lost mail: %+v", m[0])
		}
		msg, err := mail.Render(m[0].To, m[0].Template, mail.Data{BaseURL: "https://squarely.example", Fields: m[0].Fields})
		if err != nil || msg.Subject != "qr.example.com of "+workspace+" is no longer verified" ||
			!strings.Contains(msg.Text, "no TXT record at _squarely-verify.qr.example.com") ||
			!strings.Contains(msg.Text, "https://squarely.example/workspace/domains") {
			t.Fatalf("lost mail rendered: %+v, %v", msg, err)
		}
		// The codes keep working: the host still serves the workspace.
		if v, err := st.VerifiedDomain(context.Background(), d.Domain); err != nil || v.ID != d.ID {
			t.Fatalf("lost domain no longer served: %v, %v", v, err)
		}

		e.pass(r, 3*time.Hour) // +54h: still lost
		if m := e.mails(); len(m) != 0 || !e.get(d.ID).LostAt.Equal(lost.LostAt.UTC()) {
			t.Fatalf("lost again: %v", recipients(m))
		}
		e.publish(d)
		e.pass(r, 3*time.Hour) // +57h: restored
		if got := e.get(d.ID); got.LostAt != nil || got.LastError != "" {
			t.Fatalf("after the proof is back: %+v", got)
		}
		e.dns.Delete(domains.VerifyLabel + d.Domain)
		e.pass(r, 24*time.Hour)
		e.pass(r, 3*time.Hour)
		if got := e.get(d.ID); got.LostAt == nil {
			t.Fatalf("not lost again: %+v", got)
		}
		if m := e.mails(); len(m) != 2 {
			t.Fatalf("second loss: %d mails, want 2", len(m))
		}
	})
}

// A failure that passes (SERVFAIL on one check, the record on the next)
// marks nothing and mails no one; two misses that are not in a row
// neither.
func TestRecheckTransientFailure(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		d := e.domain("qr.example.com", true)
		r := e.runner(st)
		e.dns.Fail(true)
		e.pass(r, 24*time.Hour)
		if got := e.get(d.ID); got.LostAt != nil || !strings.Contains(got.LastError, "failed; try again") {
			t.Fatalf("after SERVFAIL: %+v", got)
		}
		e.dns.Fail(false)
		e.pass(r, 3*time.Hour)
		e.dns.Fail(true)
		e.pass(r, 24*time.Hour)
		e.dns.Fail(false)
		e.pass(r, 3*time.Hour)
		if got := e.get(d.ID); got.LostAt != nil || got.LastError != "" {
			t.Fatalf("after the record answered again: %+v", got)
		}
		if m := e.mails(); len(m) != 0 {
			t.Fatalf("mailed for a transient failure: %v", recipients(m))
		}
	})
}

// Two instances re-checking at once over one database check each domain
// once a round, and a loss mails once.
func TestRecheckTwoInstances(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			e := newEnv(t, a)
			var list []*store.Domain
			for i := range 10 {
				list = append(list, e.domain("d"+string(rune('a'+i))+".example.com", true))
			}
			ra, rb := e.runner(a), e.runner(b)
			round := func(d time.Duration) {
				e.clock.Add(d)
				var wg sync.WaitGroup
				for _, r := range []*domains.Runner{ra, rb} {
					wg.Go(func() {
						if err := r.Pass(context.Background()); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
			}
			round(24 * time.Hour)
			for _, d := range list {
				if n := e.dns.AskedTXT(domains.VerifyLabel + d.Domain); n != 1 {
					t.Errorf("%s asked %d times in one round", d.Domain, n)
				}
				e.dns.Delete(domains.VerifyLabel + d.Domain)
			}
			round(24 * time.Hour)
			round(3 * time.Hour)
			if m := e.mails(); len(m) != 10 {
				t.Errorf("%d lost mails for 10 domains", len(m))
			}
			for _, d := range list {
				if got := e.get(d.ID); got.LostAt == nil {
					t.Errorf("%s not lost", d.Domain)
				}
			}
		})
	}
}

package digests_test

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/digests"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/mailings"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

const baseURL = "https://sq.example"

// clock is a test clock both runners share.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func at(s string) (t time.Time)  { t, _ = time.Parse(time.RFC3339, s); return t }
func periods(b *builds) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.got...)
}
func (b *builds) add(from, to time.Time) {
	b.mu.Lock()
	b.got = append(b.got, from.Format(time.RFC3339)+"/"+to.Format(time.RFC3339))
	b.mu.Unlock()
}

// builds records the periods digests were built for.
type builds struct {
	mu  sync.Mutex
	got []string
}

// Two runners (two instances on one database) poll the same due schedule
// at once, on an injected clock that crosses New York's spring-forward
// night and then Berlin's fall-back one: each recipient gets each period's
// digest once, at the local hour (03:00 on the day 02:00 does not exist,
// the first 02:00 on the day it happens twice), with the files attached
// and an unsubscribe link that names them.
func TestTwoRunnersSendEachDigestOnce(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			ctx := context.Background()
			srv := mailtest.Start(t, mailtest.Options{})
			mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: srv.URL(), From: "Squarely <hello@squarely.test>"})
			if err != nil {
				t.Fatal(err)
			}
			ann := storetest.CreateUser(t, a, "ann@example.com")
			bob := storetest.CreateUser(t, a, "bob@example.com")
			ws := storetest.Personal(t, a, ann.ID)
			join(t, a, ws, ann.ID, bob)
			ny, _ := time.LoadLocation("America/New_York")
			s := digests.Schedule{Frequency: digests.Daily, Hour: 2, Loc: ny}
			c := &clock{t: at("2026-03-06T12:00:00Z")}
			sc := &store.ReportSchedule{WorkspaceID: ws, CreatedBy: ann.ID, Frequency: "daily", Hour: 2, TimeZone: "America/New_York",
				Formats: []string{"pdf", "csv"}, NextSendAt: s.Next(c.Now()),
				Recipients: []store.Recipient{{UserID: ann.ID}, {UserID: bob.ID}}}
			if err := a.CreateReportSchedule(ctx, sc, 10, c.Now()); err != nil {
				t.Fatal(err)
			}
			var built builds
			build := func(_ context.Context, got *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
				built.add(from, to)
				return &digests.Digest{Workspace: got.WorkspaceName, Scope: "the workspace", From: from, To: to, Scans: 7, Previous: 5,
					Countries: []digests.Count{{"DE", 4}, {"FR", 3}},
					Files: []mail.Attachment{{Name: "scan-report.pdf", ContentType: "application/pdf", Data: []byte("%PDF-fake")},
						{Name: "scan-report.csv", ContentType: "text/csv", Data: []byte("breakdown,name,scans\r\n")}}}, nil
			}
			runner := func(st *store.Store, owner string) *digests.Runner {
				return digests.NewRunner(digests.Options{Store: st, Mailer: mailer, BaseURL: baseURL, Build: build,
					Leased: jobs.Leased{Owner: owner, Now: c.Now, Logger: slog.New(slog.DiscardHandler)}})
			}
			ra, rb := runner(a, "a"), runner(b, "b")
			both := func() {
				var wg sync.WaitGroup
				wg.Go(func() { ra.Pass(ctx) })
				wg.Go(func() { rb.Pass(ctx) })
				wg.Wait()
			}
			// 6 March 07:00 UTC was 02:00 EST. Step the clock through three
			// nights, a minute at a time around each sending.
			sends := []string{"2026-03-07T07:00:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:00:00Z"}
			for _, send := range sends {
				for _, off := range []time.Duration{-2 * time.Minute, -time.Second, 0, time.Second, time.Minute, 2 * time.Minute} {
					c.Set(at(send).Add(off))
					both()
				}
			}
			// A runner that died after mailing, before moving the schedule on,
			// leaves it due for the same period: the next one sends nothing.
			crashed := *sc
			crashed.NextSendAt = at(sends[2])
			if err := a.UpdateReportSchedule(ctx, &crashed, c.Now()); err != nil {
				t.Fatal(err)
			}
			both()
			got := srv.Messages()
			if len(got) != 6 {
				t.Fatalf("%d messages, want 6 (two recipients, three nights)", len(got))
			}
			want := []string{
				"2026-03-06T00:00:00-05:00/2026-03-07T00:00:00-05:00",
				"2026-03-07T00:00:00-05:00/2026-03-08T00:00:00-05:00",
				"2026-03-08T00:00:00-05:00/2026-03-09T00:00:00-04:00",
				"2026-03-08T00:00:00-05:00/2026-03-09T00:00:00-04:00", // built again after the "crash", not sent
			}
			if p := periods(&built); strings.Join(p, " ") != strings.Join(want, " ") {
				t.Errorf("built periods %v, want %v", p, want)
			}
			perRecipient := map[string]int{}
			for _, m := range got {
				perRecipient[m.To[0]]++
				if len(m.Files) != 2 || string(m.Files[0].Data) != "%PDF-fake" || m.Files[1].Name != "scan-report.csv" {
					t.Errorf("files %+v", m.Files)
				}
				if !strings.Contains(m.Text, "7 scans, +40% against the period before (5 scans)") || !strings.Contains(m.Text, "DE: 4") {
					t.Errorf("text %q", m.Text)
				}
				link := strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
				key, err := mailings.UnsubscribeKey(ctx, a)
				if err != nil {
					t.Fatal(err)
				}
				u, err := url.Parse(link)
				if err != nil || u.Path != "/unsubscribe/report" {
					t.Fatalf("unsubscribe link %q", link)
				}
				id, user, ok := digests.ParseUnsubscribeToken(key, u.Query().Get("token"))
				wantUser := ann.ID
				if m.To[0] == "bob@example.com" {
					wantUser = bob.ID
				}
				if !ok || id != sc.ID || user != wantUser || !strings.Contains(m.Text, link) {
					t.Errorf("unsubscribe link %q names %d/%d (%v)", link, id, user, ok)
				}
				if _, _, ok := digests.ParseUnsubscribeToken(key, mailings.UnsubscribeToken(key, "ann@example.com")); ok {
					t.Error("a newsletter unsubscribe token passes for a digest's")
				}
			}
			if perRecipient["ann@example.com"] != 3 || perRecipient["bob@example.com"] != 3 {
				t.Errorf("per recipient %v", perRecipient)
			}
			next, _ := a.ReportSchedule(ctx, ws, sc.ID)
			if !next.NextSendAt.Equal(at("2026-03-10T06:00:00Z")) {
				t.Errorf("next sending %v", next.NextSendAt)
			}
			deliveries, _ := a.ReportDeliveries(ctx, sc.ID)
			if len(deliveries) != 6 {
				t.Errorf("%d delivery rows", len(deliveries))
			}
			for _, d := range deliveries {
				if d.Status != store.ReportSent {
					t.Errorf("delivery %+v", d)
				}
			}

			// Bob unsubscribes; a digest of an empty period is skipped
			// unless the schedule asks for it.
			if _, err := a.RemoveReportRecipient(ctx, sc.ID, bob.ID); err != nil {
				t.Fatal(err)
			}
			build = func(_ context.Context, got *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
				return &digests.Digest{Scope: "the workspace", From: from, To: to}, nil
			}
			ra, rb = runner(a, "a"), runner(b, "b")
			c.Set(at("2026-03-10T06:00:30Z"))
			both()
			if n := len(srv.Messages()); n != 6 {
				t.Errorf("an empty period was mailed: %d messages", n)
			}
			deliveries, _ = a.ReportDeliveries(ctx, sc.ID)
			if last := deliveries[len(deliveries)-1]; len(deliveries) != 7 || last.Status != store.ReportSkipped || last.UserID != ann.ID {
				t.Errorf("deliveries %+v", deliveries)
			}

			// The same schedule moved to Berlin, where 02:00 happens twice on
			// 25 October (fall back): one digest that night, at the first.
			c.Set(at("2026-10-23T12:00:00Z"))
			berlin, _ := time.LoadLocation("Europe/Berlin")
			moved := *sc
			moved.TimeZone, moved.SendEmpty, moved.Recipients = "Europe/Berlin", true, []store.Recipient{{UserID: ann.ID}}
			moved.NextSendAt = digests.Schedule{Frequency: digests.Daily, Hour: 2, Loc: berlin}.Next(c.Now())
			if err := a.UpdateReportSchedule(ctx, &moved, c.Now()); err != nil {
				t.Fatal(err)
			}
			var autumn builds
			build = func(_ context.Context, _ *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
				autumn.add(from, to)
				return &digests.Digest{Scope: "the workspace", From: from, To: to}, nil
			}
			ra, rb = runner(a, "a"), runner(b, "b")
			sent := len(srv.Messages())
			// 02:00 CEST is 00:00 UTC; the second 02:00 (CET) is 01:00 UTC.
			for _, probe := range []struct {
				at   string
				sent int
			}{{"2026-10-24T00:00:00Z", 1}, {"2026-10-24T00:01:00Z", 1}, {"2026-10-25T00:00:00Z", 2}, {"2026-10-25T00:01:00Z", 2},
				{"2026-10-25T01:00:00Z", 2}, {"2026-10-25T01:01:00Z", 2}, {"2026-10-26T01:00:00Z", 3}, {"2026-10-26T01:01:00Z", 3}} {
				c.Set(at(probe.at))
				both()
				if n := len(srv.Messages()) - sent; n != probe.sent {
					t.Errorf("at %s: %d digests over the Berlin nights, want %d", probe.at, n, probe.sent)
				}
			}
			want = []string{
				"2026-10-23T00:00:00+02:00/2026-10-24T00:00:00+02:00",
				"2026-10-24T00:00:00+02:00/2026-10-25T00:00:00+02:00",
				"2026-10-25T00:00:00+02:00/2026-10-26T00:00:00+01:00",
			}
			if p := periods(&autumn); strings.Join(p, " ") != strings.Join(want, " ") {
				t.Errorf("Berlin periods %v, want %v", p, want)
			}
		})
	}
}

// After downtime the latest due period goes out once, late; the missed
// ones are not caught up, and the schedule moves on past now.
func TestRunnerAfterDowntimeSendsTheLatestPeriodOnce(t *testing.T) {
	st := storetest.Open(t)
	ctx := context.Background()
	var sent []mail.Message
	var mu sync.Mutex
	mailer := mailerFunc(func(m mail.Message) { mu.Lock(); sent = append(sent, m); mu.Unlock() })
	ann := storetest.CreateUser(t, st, "ann@example.com")
	ws := storetest.Personal(t, st, ann.ID)
	sc := &store.ReportSchedule{WorkspaceID: ws, Frequency: "weekly", Weekday: 1, Hour: 9, TimeZone: "Europe/Berlin",
		Formats: []string{"csv"}, SendEmpty: true, NextSendAt: at("2026-03-02T08:00:00Z"), Recipients: []store.Recipient{{UserID: ann.ID}}}
	if err := st.CreateReportSchedule(ctx, sc, 10, at("2026-03-01T00:00:00Z")); err != nil {
		t.Fatal(err)
	}
	var built builds
	c := &clock{t: at("2026-03-18T12:00:00Z")} // two weeks and more later
	r := digests.NewRunner(digests.Options{Store: st, Mailer: mailer, BaseURL: baseURL, Leased: jobs.Leased{Now: c.Now},
		Build: func(_ context.Context, _ *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
			built.add(from, to)
			return &digests.Digest{From: from, To: to}, nil
		}})
	r.Pass(ctx)
	r.Pass(ctx)
	if len(sent) != 1 || strings.Join(periods(&built), "") != "2026-03-09T00:00:00+01:00/2026-03-16T00:00:00+01:00" {
		t.Fatalf("%d sent, periods %v", len(sent), periods(&built))
	}
	got, _ := st.ReportSchedule(ctx, ws, sc.ID)
	if !got.NextSendAt.Equal(at("2026-03-23T08:00:00Z")) {
		t.Errorf("next sending %v", got.NextSendAt)
	}
}

// A schedule whose code was deleted sends nothing and moves on to its
// next sending, rather than failing every poll.
func TestRunnerMovesOnPastADeletedCode(t *testing.T) {
	st := storetest.Open(t)
	ctx := context.Background()
	ann := storetest.CreateUser(t, st, "ann@example.com")
	ws := storetest.Personal(t, st, ann.ID)
	sc := &store.ReportSchedule{WorkspaceID: ws, Frequency: "daily", Hour: 6, TimeZone: "UTC", Formats: []string{"csv"},
		NextSendAt: at("2026-03-02T06:00:00Z"), Recipients: []store.Recipient{{UserID: ann.ID}}}
	if err := st.CreateReportSchedule(ctx, sc, 10, at("2026-03-01T00:00:00Z")); err != nil {
		t.Fatal(err)
	}
	var sent []mail.Message
	c := &clock{t: at("2026-03-02T06:00:10Z")}
	r := digests.NewRunner(digests.Options{Store: st, Mailer: mailerFunc(func(m mail.Message) { sent = append(sent, m) }), BaseURL: baseURL,
		Leased: jobs.Leased{Now: c.Now, Logger: slog.New(slog.DiscardHandler)},
		Build: func(context.Context, *store.ReportSchedule, time.Time, time.Time) (*digests.Digest, error) {
			return nil, store.ErrNotFound
		}})
	r.Pass(ctx)
	got, _ := st.ReportSchedule(ctx, ws, sc.ID)
	if len(sent) != 0 || !got.NextSendAt.Equal(at("2026-03-03T06:00:00Z")) {
		t.Errorf("%d sent, next sending %v", len(sent), got.NextSendAt)
	}
}

type mailerFunc func(mail.Message)

func (f mailerFunc) Send(_ context.Context, m mail.Message) error { f(m); return nil }

// join makes u a viewer of the workspace, through an invitation.
func join(t *testing.T, st *store.Store, ws, inviter int64, u *store.User) {
	t.Helper()
	ctx := context.Background()
	inv := &store.Invitation{WorkspaceID: ws, Email: u.Email, Role: "viewer", InvitedBy: inviter,
		ExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now()}
	if err := st.CreateInvitation(ctx, inv, "invite-"+u.Email); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcceptInvitation(ctx, "invite-"+u.Email, u, time.Now()); err != nil {
		t.Fatal(err)
	}
}

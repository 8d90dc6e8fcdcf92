package digests_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/squarely/squarely/internal/digests"
	"github.com/squarely/squarely/internal/jobs"
	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/mail/mailtest"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// syncBuffer is a log both runners write to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// A digest the mail server refuses is tried again 10 and 60 minutes
// later by whichever of two runners gets there first, and goes out once:
// Ann's server takes the third try; Bob's refuses all three, after which
// his delivery stays failed, is logged, and is not tried again. A year
// and more later the rows of that period are deleted.
func TestRefusedDigestIsRetriedAndSentOnce(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			ctx := context.Background()
			var mu sync.Mutex
			tries := map[string]int{}
			srv := mailtest.Start(t, mailtest.Options{Refuse: func(to string, _ int) *smtp.SMTPError {
				mu.Lock()
				defer mu.Unlock()
				tries[to]++
				if to == "bob@example.com" || tries[to] < 3 {
					return &smtp.SMTPError{Code: 451, Message: "try later"}
				}
				return nil
			}})
			// One SMTP attempt per send: the retries under test are the runner's.
			mailer, err := mail.NewSMTP(mail.SMTPOptions{URL: srv.URL(), From: "Squarely <hello@squarely.test>", Attempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			ann := storetest.CreateUser(t, a, "ann@example.com")
			bob := storetest.CreateUser(t, a, "bob@example.com")
			ws := storetest.Personal(t, a, ann.ID)
			join(t, a, ws, ann.ID, bob)
			send := at("2026-03-02T06:00:00Z")
			sc := &store.ReportSchedule{WorkspaceID: ws, Frequency: "daily", Hour: 6, TimeZone: "UTC", Formats: []string{"csv"},
				NextSendAt: send, Recipients: []store.Recipient{{UserID: ann.ID}, {UserID: bob.ID}}}
			if err := a.CreateReportSchedule(ctx, sc, 10, send.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			c := &clock{}
			var built builds
			var logs syncBuffer
			runner := func(st *store.Store, owner string) *digests.Runner {
				return digests.NewRunner(digests.Options{Store: st, Mailer: mailer, BaseURL: baseURL,
					Leased: jobs.Leased{Owner: owner, Now: c.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))},
					Build: func(_ context.Context, _ *store.ReportSchedule, from, to time.Time) (*digests.Digest, error) {
						built.add(from, to)
						return &digests.Digest{Scope: "the workspace", From: from, To: to, Scans: 3}, nil
					}})
			}
			ra, rb := runner(a, "a"), runner(b, "b")
			both := func(t time.Time) {
				c.Set(t)
				var wg sync.WaitGroup
				wg.Go(func() { ra.Pass(ctx) })
				wg.Go(func() { rb.Pass(ctx) })
				wg.Wait()
			}
			deliveries := func() map[int64]store.ReportDelivery {
				list, err := a.ReportDeliveries(ctx, sc.ID)
				if err != nil {
					t.Fatal(err)
				}
				m := map[int64]store.ReportDelivery{}
				for _, d := range list {
					m[d.UserID] = d
				}
				return m
			}

			both(send.Add(10 * time.Second))
			d := deliveries()
			if d[ann.ID].Status != store.ReportFailed || d[ann.ID].RetryAt == nil || !d[ann.ID].RetryAt.Equal(send.Add(10*time.Minute+10*time.Second)) ||
				!strings.Contains(d[ann.ID].Reason, "451") {
				t.Fatalf("after the first try: %+v", d[ann.ID])
			}
			for _, probe := range []time.Duration{5 * time.Minute, 10*time.Minute + 10*time.Second, 30 * time.Minute, 59 * time.Minute} {
				both(send.Add(probe))
			}
			if n := len(srv.Messages()); n != 0 {
				t.Fatalf("%d messages before the third try", n)
			}
			d = deliveries()
			if d[ann.ID].Attempts != 2 || d[ann.ID].Status != store.ReportFailed || d[ann.ID].RetryAt == nil {
				t.Fatalf("after the second try: %+v", d[ann.ID])
			}
			for _, probe := range []time.Duration{61 * time.Minute, 62 * time.Minute, 3 * time.Hour} {
				both(send.Add(probe))
			}
			got := srv.Messages()
			if len(got) != 1 || got[0].To[0] != "ann@example.com" {
				t.Fatalf("messages %+v, want Ann's one", got)
			}
			mu.Lock()
			if tries["ann@example.com"] != 3 || tries["bob@example.com"] != 3 {
				t.Errorf("tries %v, want 3 each", tries)
			}
			mu.Unlock()
			d = deliveries()
			if a, b := d[ann.ID], d[bob.ID]; a.Status != store.ReportSent || a.Attempts != 3 || a.RetryAt != nil ||
				b.Status != store.ReportFailed || b.Attempts != 3 || b.RetryAt != nil || !strings.Contains(b.Reason, "451") {
				t.Errorf("deliveries: Ann %+v, Bob %+v", a, b)
			}
			if l := logs.String(); strings.Count(l, "giving up") != 1 || !strings.Contains(l, "bob@example.com") {
				t.Errorf("logs:\n%s", l)
			}
			// The first sending and the two retries of one period, built for the same day.
			if p := periods(&built); len(p) != 5 || p[0] != p[4] || p[0] != "2026-03-01T00:00:00Z/2026-03-02T00:00:00Z" {
				t.Errorf("built %v", p)
			}

			// A year and more later, a fresh runner deletes that period's
			// rows as it sends the day's digest (its try refused too).
			later := send.Add(digests.Keep + 24*time.Hour)
			if err := a.UpdateReportSchedule(ctx, &store.ReportSchedule{ID: sc.ID, WorkspaceID: ws, Frequency: "daily", Hour: 6, TimeZone: "UTC",
				Formats: []string{"csv"}, NextSendAt: later, Recipients: []store.Recipient{{UserID: ann.ID}}}, later.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			c.Set(later)
			runner(a, "c").Pass(ctx)
			list, _ := a.ReportDeliveries(ctx, sc.ID)
			if len(list) != 1 || !list[0].PeriodStart.Equal(later.Add(-6*time.Hour-24*time.Hour)) {
				t.Errorf("deliveries after the pruning %+v", list)
			}
		})
	}
}

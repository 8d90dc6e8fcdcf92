package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Schedules keep their scope and members: another workspace's code or a
// non-member is refused, the limit holds under concurrent creations, and
// a member who leaves drops out of the recipients.
func TestReportSchedules(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		ann := storetest.CreateUser(t, s, "ann@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		eve := storetest.CreateUser(t, s, "eve@example.com")
		ws := storetest.Personal(t, s, ann.ID)
		if _, err := store.WriteDB(s).Exec(`INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, 'viewer', $3)`,
			ws, bob.ID, now.Format(time.RFC3339)); err != nil {
			t.Fatal(err)
		}
		code := storetest.CreateDynamic(t, s, ann.ID, "menu1")
		other := storetest.CreateDynamic(t, s, eve.ID, "evecode")
		sched := func() *store.ReportSchedule {
			return &store.ReportSchedule{WorkspaceID: ws, CreatedBy: ann.ID, CodeID: code.ID, Frequency: "weekly", Weekday: 1, Hour: 9,
				TimeZone: "Europe/Berlin", Formats: []string{"pdf", "csv"}, NextSendAt: now.Add(time.Hour),
				Recipients: []store.Recipient{{UserID: ann.ID}, {UserID: bob.ID}}}
		}
		sc := sched()
		if err := s.CreateReportSchedule(ctx, sc, 3, now); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReportSchedule(ctx, ws, sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.ScopeName != "Menu" || got.CodeID != code.ID || got.Hour != 9 || got.Weekday != 1 || got.TimeZone != "Europe/Berlin" ||
			len(got.Formats) != 2 || !got.NextSendAt.Equal(now.Add(time.Hour)) || len(got.Recipients) != 2 ||
			got.Recipients[0].Email != "ann@example.com" || got.Recipients[1].Email != "bob@example.com" {
			t.Fatalf("read back %+v", got)
		}
		if _, err := s.ReportSchedule(ctx, storetest.Personal(t, s, eve.ID), sc.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace reads it: %v", err)
		}

		bad := sched()
		bad.CodeID = other.ID
		if err := s.CreateReportSchedule(ctx, bad, 3, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace's code: %v", err)
		}
		bad = sched()
		bad.Recipients = append(bad.Recipients, store.Recipient{UserID: eve.ID})
		if err := s.CreateReportSchedule(ctx, bad, 3, now); !errors.Is(err, store.ErrNotMember) {
			t.Errorf("a non-member recipient: %v", err)
		}
		if n := storetest.Count(t, s, "report_schedules"); n != 1 {
			t.Fatalf("refused schedules were saved: %d", n)
		}

		// Concurrent creations stop at the limit of 3.
		var wg sync.WaitGroup
		errs := make(chan error, 6)
		for range 6 {
			wg.Go(func() { errs <- s.CreateReportSchedule(ctx, sched(), 3, now) })
		}
		wg.Wait()
		close(errs)
		limited := 0
		for err := range errs {
			if errors.Is(err, store.ErrLimit) {
				limited++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if n := storetest.Count(t, s, "report_schedules"); n != 3 || limited != 4 {
			t.Fatalf("%d schedules, %d refused; want 3 and 4", n, limited)
		}

		// An update replaces the scope, timing and recipients.
		up := sched()
		up.ID, up.CodeID, up.Frequency, up.Hour, up.Recipients = sc.ID, 0, "daily", 7, []store.Recipient{{UserID: bob.ID}}
		if err := s.UpdateReportSchedule(ctx, up, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		got, _ = s.ReportSchedule(ctx, ws, sc.ID)
		if got.CodeID != 0 || got.ScopeName != "" || got.Frequency != "daily" || got.Hour != 7 || len(got.Recipients) != 1 || got.Recipients[0].UserID != bob.ID {
			t.Fatalf("updated %+v", got)
		}
		up.WorkspaceID = storetest.Personal(t, s, eve.ID)
		if err := s.UpdateReportSchedule(ctx, up, now); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another workspace updates it: %v", err)
		}

		// Bob leaves: he is no longer a recipient.
		if _, err := store.WriteDB(s).Exec(`DELETE FROM workspace_members WHERE user_id = $1 AND workspace_id = $2`, bob.ID, ws); err != nil {
			t.Fatal(err)
		}
		if got, _ = s.ReportSchedule(ctx, ws, sc.ID); len(got.Recipients) != 0 {
			t.Errorf("a former member is still a recipient: %+v", got.Recipients)
		}

		list, err := s.ReportSchedules(ctx, ws)
		if err != nil || len(list) != 3 {
			t.Fatalf("list: %d, %v", len(list), err)
		}
		if err := s.DeleteReportSchedule(ctx, ws, sc.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteReportSchedule(ctx, ws, sc.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted twice: %v", err)
		}
	})
}

// A due schedule is claimed by one runner at a time; a delivery row is
// written once per recipient and period, whoever tries; an unsubscribe
// removes the recipient.
func TestReportScheduleClaimsAndDeliveries(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			a, b := storetest.OpenTwice(t, db)
			ctx := context.Background()
			now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
			ann := storetest.CreateUser(t, a, "ann@example.com")
			ws := storetest.Personal(t, a, ann.ID)
			sc := &store.ReportSchedule{WorkspaceID: ws, CreatedBy: ann.ID, Frequency: "daily", Hour: 9, TimeZone: "UTC",
				Formats: []string{"csv"}, NextSendAt: now, Recipients: []store.Recipient{{UserID: ann.ID}}}
			if err := a.CreateReportSchedule(ctx, sc, 10, now.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			if _, err := a.ClaimReportSchedule(ctx, "a", now.Add(-time.Second), time.Minute); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("claimed before it is due: %v", err)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			claims := 0
			for _, st := range []*store.Store{a, b, a, b} {
				wg.Go(func() {
					got, err := st.ClaimReportSchedule(ctx, "runner", now, time.Minute)
					if err == nil && got.ID == sc.ID && len(got.Recipients) == 1 {
						mu.Lock()
						claims++
						mu.Unlock()
					} else if err != nil && !errors.Is(err, store.ErrNotFound) {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if claims != 1 {
				t.Fatalf("%d claims of one schedule", claims)
			}
			// The lease runs out: another runner may take it over.
			if _, err := b.ClaimReportSchedule(ctx, "b", now.Add(2*time.Minute), time.Minute); err != nil {
				t.Fatalf("after the lease: %v", err)
			}
			started := 0
			for _, st := range []*store.Store{a, b, a} {
				ok, err := st.StartReportDelivery(ctx, sc.ID, ann.ID, now.Add(-24*time.Hour), store.ReportSending, now)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					started++
				}
			}
			if started != 1 {
				t.Fatalf("%d deliveries started for one period", started)
			}
			if err := b.FinishReportDelivery(ctx, sc.ID, ann.ID, now.Add(-24*time.Hour), store.ReportSent, "", now); err != nil {
				t.Fatal(err)
			}
			// The holder moves it on; an edit made during the run would win.
			if err := b.FinishReportSchedule(ctx, sc.ID, "b", now.Add(24*time.Hour), now.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
			got, _ := a.ReportSchedule(ctx, ws, sc.ID)
			if !got.NextSendAt.Equal(now.Add(24 * time.Hour)) {
				t.Errorf("next sending %v", got.NextSendAt)
			}
			list, err := a.ReportDeliveries(ctx, sc.ID)
			if err != nil || len(list) != 1 || list[0].Status != store.ReportSent {
				t.Fatalf("deliveries %+v, %v", list, err)
			}
			if ok, err := a.RemoveReportRecipient(ctx, sc.ID, ann.ID); !ok || err != nil {
				t.Fatalf("unsubscribe: %v %v", ok, err)
			}
			if ok, _ := a.RemoveReportRecipient(ctx, sc.ID, ann.ID); ok {
				t.Error("unsubscribed twice")
			}
			if got, _ := a.ReportSchedule(ctx, 0, sc.ID); len(got.Recipients) != 0 {
				t.Errorf("recipients after the unsubscribe: %+v", got.Recipients)
			}
		})
	}
}

// TopCodes counts each code's human scans in the range, most first, for
// the workspace or a tag's codes only.
func TestTopCodes(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ann := storetest.CreateUser(t, s, "ann@example.com")
		ws := storetest.Personal(t, s, ann.ID)
		a, b, c := storetest.CreateDynamic(t, s, ann.ID, "topa"), storetest.CreateDynamic(t, s, ann.ID, "topb"), storetest.CreateDynamic(t, s, ann.ID, "topc")
		day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
		var events []store.ScanEvent
		add := func(code int64, n int, at time.Time, bot bool) {
			for i := range n {
				events = append(events, store.ScanEvent{CodeID: code, ScannedAt: at.Add(time.Duration(i) * time.Minute), IsBot: bot, VisitorHash: "v", Route: store.RouteDefault})
			}
		}
		add(a.ID, 2, day.Add(time.Hour), false)
		add(b.ID, 3, day.Add(2*time.Hour), false)
		add(b.ID, 5, day.Add(3*time.Hour), true)   // bots: left out
		add(c.ID, 9, day.Add(-time.Hour), false)   // before the range
		add(a.ID, 4, day.Add(24*time.Hour), false) // at its end: left out
		if err := s.RecordScans(ctx, events); err != nil {
			t.Fatal(err)
		}
		q := store.ScanQuery{WorkspaceID: ws, From: day, To: day.Add(24 * time.Hour)}
		got, err := s.TopCodes(ctx, q, 10)
		if err != nil || len(got) != 2 || got[0].CodeID != b.ID || got[0].Scans != 3 || got[1].CodeID != a.ID || got[1].Scans != 2 || got[1].ShortCode != "topa" {
			t.Fatalf("workspace: %+v, %v", got, err)
		}
		if got, _ := s.TopCodes(ctx, q, 1); len(got) != 1 || got[0].CodeID != b.ID {
			t.Errorf("limit 1: %+v", got)
		}
		tag := &store.Tag{Name: "Posters"}
		if err := s.CreateTag(ctx, ws, tag, day); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCodeTags(ctx, ws, true, a.ID, []int64{tag.ID}); err != nil {
			t.Fatal(err)
		}
		q.TagID = tag.ID
		if got, err := s.TopCodes(ctx, q, 10); err != nil || len(got) != 1 || got[0].CodeID != a.ID || got[0].Scans != 2 {
			t.Errorf("tag: %+v, %v", got, err)
		}
	})
}

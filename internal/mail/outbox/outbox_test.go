package outbox

import (
	"context"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/mail"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Unsent mail (failed, or left 'sending' by a sender that died) is deleted
// once it is older than KeepUnsent, with the fields it holds; pending mail
// and newer failures stay; a sender prunes once a day.
func TestPruneUnsentMail(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		old, recent := now.Add(-KeepUnsent-time.Hour), now.Add(-KeepUnsent+time.Hour)
		queue := func(to string, at time.Time) {
			t.Helper()
			fields := map[string]any{"IP": "203.0.113.9", "Browser": "Firefox"}
			if err := st.QueueMail(ctx, to, "account_new_device", fields, at); err != nil {
				t.Fatal(err)
			}
		}
		// claim takes the oldest pending mail; sent false marks it failed.
		claim := func(finish, sent bool) {
			t.Helper()
			m, err := st.ClaimQueuedMail(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if finish {
				if err := st.FinishQueuedMail(ctx, m.ID, sent); err != nil {
					t.Fatal(err)
				}
			}
		}
		queue("old-failed@example.com", old)
		claim(true, false)
		queue("old-stuck@example.com", old)
		claim(false, false)
		queue("recent-failed@example.com", recent)
		claim(true, false)
		queue("old-pending@example.com", old)

		s := New(st, mail.LogMailer{}, "https://squarely.test", nil)
		s.Prune(ctx, now)
		remaining := func() (n int, recipients string) {
			storetest.QueryRow(t, st, `SELECT count(*), COALESCE(min(recipient), '') || ' ' || COALESCE(max(recipient), '') FROM mail_outbox`, nil, &n, &recipients)
			return n, recipients
		}
		if n, who := remaining(); n != 2 || who != "old-pending@example.com recent-failed@example.com" {
			t.Fatalf("after pruning: %d mails, %s", n, who)
		}
		// Once a day: the recent failure, old by then, goes only on the next day's pass.
		s.Prune(ctx, now.Add(2*time.Hour))
		if n, _ := remaining(); n != 2 {
			t.Fatalf("pruned again within the day: %d mails left", n)
		}
		s.Prune(ctx, now.Add(pruneEvery))
		if n, who := remaining(); n != 1 || who != "old-pending@example.com old-pending@example.com" {
			t.Fatalf("the next day: %d mails, %s", n, who)
		}
	})
}

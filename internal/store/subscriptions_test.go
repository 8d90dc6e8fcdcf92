package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestSubscribe(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		first := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		state := func() (deleted bool, since time.Time) {
			t.Helper()
			var raw any
			err := store.WriteDB(s).QueryRowContext(ctx,
				`SELECT is_deleted, subscribed_at FROM newsletter_subscriptions WHERE email = $1`, "fin@example.com").Scan(&deleted, &raw)
			if err != nil {
				t.Fatal(err)
			}
			switch v := raw.(type) {
			case time.Time:
				since = v
			case string:
				since, err = time.Parse(time.RFC3339Nano, v)
				if err != nil {
					t.Fatal(err)
				}
			}
			return deleted, since.UTC()
		}

		if err := s.Subscribe(ctx, "fin@example.com", first); err != nil {
			t.Fatal(err)
		}
		// Again, and many times at once: still one row, from the first date.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if err := s.Subscribe(ctx, "fin@example.com", first.Add(time.Hour)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := storetest.Count(t, s, "newsletter_subscriptions"); n != 1 {
			t.Fatalf("%d rows after repeated sign-ups, want 1", n)
		}
		if _, since := state(); !since.Equal(first) {
			t.Errorf("subscribed_at moved to %v on a repeat sign-up", since)
		}

		// An address that unsubscribed is revived, from the new date.
		if _, err := store.WriteDB(s).ExecContext(ctx,
			`UPDATE newsletter_subscriptions SET is_deleted = TRUE, deleted_at = subscribed_at`); err != nil {
			t.Fatal(err)
		}
		again := first.Add(48 * time.Hour)
		if err := s.Subscribe(ctx, "fin@example.com", again); err != nil {
			t.Fatal(err)
		}
		if deleted, since := state(); deleted || !since.Equal(again) {
			t.Errorf("after revival: deleted %v since %v, want false since %v", deleted, since, again)
		}
		if n := storetest.Count(t, s, "newsletter_subscriptions"); n != 1 {
			t.Errorf("%d rows after revival, want 1", n)
		}
	})
}

func TestCreateContactMessage(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		m := &store.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "Hello there", Message: "A question about codes", InquiryType: "support", CreatedAt: time.Now()}
		if err := s.CreateContactMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		if m.ID == 0 {
			t.Error("no ID set")
		}
		var subject, kind string
		if err := store.WriteDB(s).QueryRowContext(ctx, `SELECT subject, inquiry_type FROM contact_messages WHERE id = $1`, m.ID).Scan(&subject, &kind); err != nil {
			t.Fatal(err)
		}
		if subject != m.Subject || kind != "support" {
			t.Errorf("stored %q %q", subject, kind)
		}
		// The schema refuses an unknown inquiry type even if a caller forgot to check.
		bad := *m
		bad.InquiryType = "spam"
		if err := s.CreateContactMessage(ctx, &bad); err == nil {
			t.Error("unknown inquiry type stored")
		}
	})
}

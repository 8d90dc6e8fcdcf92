package store

import (
	"context"
	"time"
)

// Subscribe adds email (already normalised by the caller) to the newsletter
// list. An address already subscribed stays as it was, with its first
// subscription date; one that unsubscribed (soft-deleted) is subscribed
// again from now. One statement, so concurrent sign-ups of the same address
// cannot make two rows or fail on the unique key.
func (s *Store) Subscribe(ctx context.Context, email string, now time.Time) error {
	_, err := s.write.ExecContext(ctx,
		`INSERT INTO newsletter_subscriptions (email, subscribed_at) VALUES ($1, $2)
		ON CONFLICT (email) DO UPDATE SET subscribed_at = excluded.subscribed_at, is_deleted = FALSE, deleted_at = NULL
		WHERE newsletter_subscriptions.is_deleted`,
		email, dbTime(now))
	if err != nil {
		return fail("subscribe to the newsletter", err)
	}
	return nil
}

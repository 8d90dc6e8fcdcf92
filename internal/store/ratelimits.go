package store

import (
	"context"
	"time"
)

// CountAttempt adds one attempt to the limiter name's counter for key in
// the fixed window starting at windowStart and returns the new count. It is
// one statement, so parallel attempts on any instance each see their own
// count and at most the limit of them get a count within it.
func (s *Store) CountAttempt(ctx context.Context, name, key string, windowStart time.Time) (int, error) {
	var n int
	err := s.write.QueryRowContext(ctx, `
		INSERT INTO rate_limits (name, key, window_start, count) VALUES ($1, $2, $3, 1)
		ON CONFLICT (name, key, window_start) DO UPDATE SET count = rate_limits.count + 1
		RETURNING count`, name, key, dbTime(windowStart)).Scan(&n)
	if err != nil {
		return 0, fail("count attempt", err)
	}
	return n, nil
}

// RefundAttempt takes back one attempt counted in the window (a successful
// login does not count against the limit).
func (s *Store) RefundAttempt(ctx context.Context, name, key string, windowStart time.Time) error {
	_, err := s.write.ExecContext(ctx, `
		UPDATE rate_limits SET count = count - 1
		WHERE name = $1 AND key = $2 AND window_start = $3 AND count > 0`, name, key, dbTime(windowStart))
	if err != nil {
		return fail("refund attempt", err)
	}
	return nil
}

// DeleteAttemptsBefore forgets the limiter name's counters of windows that
// started before t.
func (s *Store) DeleteAttemptsBefore(ctx context.Context, name string, t time.Time) error {
	if _, err := s.write.ExecContext(ctx, `DELETE FROM rate_limits WHERE name = $1 AND window_start < $2`, name, dbTime(t)); err != nil {
		return fail("delete old attempts", err)
	}
	return nil
}

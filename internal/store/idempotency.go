package store

import (
	"context"
	"time"
)

// IdempotentAnswer is the first answer to a POST sent with an
// Idempotency-Key. Status 0 means that request is still running.
type IdempotentAnswer struct {
	RequestHash string
	Status      int
	Body        string
}

// idempotentStall is how long a claim may stay unanswered: past it, the
// instance that ran the request is taken to have died, and a retry runs.
const idempotentStall = 5 * time.Minute

// BeginIdempotent claims idemKey for the API key hashed as keyHash. It
// returns nil when the claim is new (the caller runs the request, then
// calls FinishIdempotent or AbandonIdempotent), or the earlier claim's
// answer. A claim older than ttl, or unanswered for idempotentStall, is
// forgotten first.
func (s *Store) BeginIdempotent(ctx context.Context, keyHash, idemKey, requestHash string, now time.Time, ttl time.Duration) (*IdempotentAnswer, error) {
	_, err := s.write.ExecContext(ctx, `DELETE FROM api_idempotency WHERE created_at < $1 OR (status = 0 AND created_at < $2)`,
		dbTime(now.Add(-ttl)), dbTime(now.Add(-idempotentStall)))
	if err != nil {
		return nil, fail("expire idempotency keys", err)
	}
	_, err = s.write.ExecContext(ctx, `
		INSERT INTO api_idempotency (key_hash, idem_key, request_hash, created_at) VALUES ($1, $2, $3, $4)`,
		keyHash, idemKey, requestHash, dbTime(now))
	if err == nil {
		return nil, nil
	}
	if !isUniqueViolation(err) {
		return nil, fail("claim idempotency key", err)
	}
	a := new(IdempotentAnswer)
	err = s.write.QueryRowContext(ctx, `
		SELECT request_hash, status, body FROM api_idempotency WHERE key_hash = $1 AND idem_key = $2`,
		keyHash, idemKey).Scan(&a.RequestHash, &a.Status, &a.Body)
	if err != nil {
		return nil, fail("read idempotency key", err)
	}
	return a, nil
}

// FinishIdempotent records the answer to a claimed request.
func (s *Store) FinishIdempotent(ctx context.Context, keyHash, idemKey string, status int, body string) error {
	res, err := s.write.ExecContext(ctx, `
		UPDATE api_idempotency SET status = $3, body = $4 WHERE key_hash = $1 AND idem_key = $2`,
		keyHash, idemKey, status, body)
	return mustAffect("record idempotent answer", res, err)
}

// AbandonIdempotent drops a claim whose request failed on our side, so a
// retry runs again.
func (s *Store) AbandonIdempotent(ctx context.Context, keyHash, idemKey string) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM api_idempotency WHERE key_hash = $1 AND idem_key = $2`, keyHash, idemKey)
	if err != nil {
		return fail("abandon idempotency key", err)
	}
	return nil
}

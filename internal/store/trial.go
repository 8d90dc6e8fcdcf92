package store

import (
	"context"
	"database/sql"
	"time"
)

// ActivateTrial starts the free trial of a live user: trial_activated set,
// running from start to end. A user whose trial was ever activated gets
// ErrConflict (a trial is used once); an unknown or deleted user ErrNotFound.
func (s *Store) ActivateTrial(ctx context.Context, userID int64, start, end time.Time) error {
	// One conditional UPDATE, so two concurrent activations cannot both pass.
	res, err := s.write.ExecContext(ctx,
		`UPDATE users SET trial_activated = TRUE, trial_start_date = $2, trial_end_date = $3
		WHERE id = $1 AND NOT is_deleted AND NOT trial_activated`,
		userID, dbTime(start), dbTime(end))
	if err != nil {
		return fail("activate trial", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fail("activate trial", err)
	}
	if n == 1 {
		return nil
	}
	// Nothing changed: the trial was used, or there is no such live user.
	var live bool
	err = s.write.QueryRowContext(ctx, `SELECT TRUE FROM users WHERE id = $1 AND NOT is_deleted`, userID).Scan(&live)
	if err != nil {
		return fail("activate trial", err)
	}
	return fail("activate trial", ErrConflict)
}

// CreatePasswordToken saves a set-password link for the user: tokenHash is
// the SHA-256 (hex) of the token sent by mail, never the token itself.
func (s *Store) CreatePasswordToken(ctx context.Context, userID int64, tokenHash string, expiresAt time.Time) error {
	_, err := s.write.ExecContext(ctx,
		`INSERT INTO password_tokens (token_hash, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)`,
		tokenHash, userID, dbTime(expiresAt), dbTime(time.Now()))
	if err != nil {
		return fail("create password token", err)
	}
	return nil
}

// UsePasswordToken sets the password of the live user the unexpired token
// belongs to and returns that user. The token, and every other token of the
// user, stops working. An unknown, used or expired token is ErrNotFound.
func (s *Store) UsePasswordToken(ctx context.Context, tokenHash string, now time.Time, passwordHash string) (*User, error) {
	var u *User
	err := s.inTx(ctx, "use password token", func(tx *sql.Tx) error {
		// Deleting the token first makes it single-use: a concurrent use
		// of the same token waits on the row and then finds it gone.
		var userID int64
		err := tx.QueryRowContext(ctx,
			`DELETE FROM password_tokens WHERE token_hash = $1 AND expires_at > $2 RETURNING user_id`,
			tokenHash, dbTime(now)).Scan(&userID)
		if err != nil {
			return fail("use password token", err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE users SET password = $2 WHERE id = $1 AND NOT is_deleted`, userID, passwordHash)
		if err := mustAffect("set password", res, err); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM password_tokens WHERE user_id = $1`, userID); err != nil {
			return fail("use password token", err)
		}
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1`, userID))
		if err != nil {
			return fail("use password token", err)
		}
		return nil
	})
	return u, err
}

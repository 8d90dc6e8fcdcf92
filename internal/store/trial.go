package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"
)

// ActivateTrial starts the free trial of a live workspace for its owner
// userID: trial_activated set, running from start to end. A trial is used
// once, by a workspace and by an account: a workspace whose trial was ever
// activated, or an owner who already started one (in any workspace), gets
// ErrConflict, so making workspaces makes no new trials; an unknown or
// deleted workspace is ErrNotFound.
func (s *Store) ActivateTrial(ctx context.Context, workspaceID, userID int64, start, end time.Time) error {
	return s.inTx(ctx, "activate trial", func(tx *sql.Tx) error {
		// Conditional UPDATEs, the workspace's row then the user's, so two
		// concurrent activations (of one workspace, or of two by one owner)
		// cannot both pass.
		res, err := tx.ExecContext(ctx,
			`UPDATE workspaces SET trial_activated = TRUE, trial_start_date = $2, trial_end_date = $3
			WHERE id = $1 AND NOT is_deleted AND NOT trial_activated`,
			workspaceID, dbTime(start), dbTime(end))
		switch err := mustAffect("activate trial", res, err); {
		case errors.Is(err, ErrNotFound):
			// The trial was used, or there is no such live workspace.
			var live bool
			err := tx.QueryRowContext(ctx, `SELECT TRUE FROM workspaces WHERE id = $1 AND NOT is_deleted`, workspaceID).Scan(&live)
			if err != nil {
				return fail("activate trial", err)
			}
			return fail("activate trial", ErrConflict)
		case err != nil:
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE users SET trial_activated = TRUE, trial_start_date = $2, trial_end_date = $3
			WHERE id = $1 AND NOT trial_activated`, userID, dbTime(start), dbTime(end))
		err = mustAffect("activate trial", res, err)
		if errors.Is(err, ErrNotFound) { // the owner started a trial before, in another workspace
			return fail("activate trial", ErrConflict)
		}
		return err
	})
}

// What a mailed link does (password_tokens.purpose).
const (
	LinkSetPassword = "password" // opens /set-password; using it also proves the address
	LinkVerifyEmail = "verify"   // proves the address
)

// NewLinkToken draws the token of a mailed link (set-password, verify) and
// the hash the store keeps of it (TokenHash).
func NewLinkToken() (token, hash string) {
	raw := make([]byte, 32)
	rand.Read(raw)
	token = base64.RawURLEncoding.EncodeToString(raw)
	return token, TokenHash(token)
}

// TokenHash is what the store keeps of a secret token (a mailed link's, an
// invitation's, a passkey ceremony's): its SHA-256, hex.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreatePasswordToken saves a mailed link for the user: purpose is
// LinkSetPassword or LinkVerifyEmail, and tokenHash the SHA-256 (hex) of the
// token sent by mail, never the token itself.
func (s *Store) CreatePasswordToken(ctx context.Context, userID int64, purpose, tokenHash string, expiresAt time.Time) error {
	_, err := s.write.ExecContext(ctx,
		`INSERT INTO password_tokens (token_hash, user_id, expires_at, created_at, purpose) VALUES ($1, $2, $3, $4, $5)`,
		tokenHash, userID, dbTime(expiresAt), dbTime(time.Now()), purpose)
	if err != nil {
		return fail("create password token", err)
	}
	return nil
}

// PasswordTokenValid reports whether an unused, unexpired link of the
// purpose has tokenHash, without using it: callers check a link before
// paying for a password hash.
func (s *Store) PasswordTokenValid(ctx context.Context, purpose, tokenHash string, now time.Time) (bool, error) {
	var one int
	err := s.read.QueryRowContext(ctx,
		`SELECT 1 FROM password_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3`,
		tokenHash, purpose, dbTime(now)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fail("check password token", err)
	}
	return true, nil
}

// UsePasswordToken sets the password of the live user the unexpired
// set-password link belongs to and returns that user. Following the link
// proves the address, so the user becomes verified, and every session of
// the user ends (a squatter's too) along with every other mailed link. An
// unknown, used or expired token is ErrNotFound.
func (s *Store) UsePasswordToken(ctx context.Context, tokenHash string, now time.Time, passwordHash string) (*User, error) {
	return s.useLink(ctx, "use password token", LinkSetPassword, tokenHash, now,
		`UPDATE users SET password = $2, email_verified = TRUE WHERE id = $1 AND NOT is_deleted`, passwordHash)
}

// VerifyEmail marks the live user the unexpired verification link belongs
// to as verified, ends every session of the user and every other mailed
// link, and returns the user. An unknown, used or expired token is
// ErrNotFound.
func (s *Store) VerifyEmail(ctx context.Context, tokenHash string, now time.Time) (*User, error) {
	return s.useLink(ctx, "verify email", LinkVerifyEmail, tokenHash, now,
		`UPDATE users SET email_verified = TRUE WHERE id = $1 AND NOT is_deleted`)
}

// useLink consumes the link of the purpose, runs update on its user ($1 is
// the user id, args follow), ends the user's sessions and links, and
// returns the user.
func (s *Store) useLink(ctx context.Context, action, purpose, tokenHash string, now time.Time, update string, args ...any) (*User, error) {
	var u *User
	err := s.inTx(ctx, action, func(tx *sql.Tx) error {
		// Deleting the token first makes it single-use: a concurrent use
		// of the same token waits on the row and then finds it gone.
		var userID int64
		err := tx.QueryRowContext(ctx,
			`DELETE FROM password_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3 RETURNING user_id`,
			tokenHash, purpose, dbTime(now)).Scan(&userID)
		if err != nil {
			return fail(action, err)
		}
		res, err := tx.ExecContext(ctx, update, append([]any{userID}, args...)...)
		if err := mustAffect(action, res, err); err != nil {
			return err
		}
		if err := endAccess(ctx, tx, userID, ""); err != nil {
			return err
		}
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1`, userID))
		if err != nil {
			return fail(action, err)
		}
		return nil
	})
	return u, err
}

package store

import (
	"context"
	"database/sql"
	"time"
)

// Accounts signed in through an OpenID Connect provider (issue 27), by the
// provider's issuer URL and subject: the counterpart of google_id for any
// provider.

// UserByIdentity returns the live user linked to the issuer's subject.
func (s *Store) UserByIdentity(ctx context.Context, issuer, subject string) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `
		SELECT `+userColumns+`
		FROM user_identities i JOIN users u ON u.id = i.user_id
		WHERE i.issuer = $1 AND i.subject = $2 AND NOT u.is_deleted`, issuer, subject))
	if err != nil {
		return nil, fail("fetch user by identity", err)
	}
	return u, nil
}

// HasIdentity reports whether the user is linked to a subject of issuer.
func (s *Store) HasIdentity(ctx context.Context, userID int64, issuer string) (bool, error) {
	var has bool
	err := s.read.QueryRowContext(ctx,
		`SELECT EXISTS (SELECT 1 FROM user_identities WHERE user_id = $1 AND issuer = $2)`, userID, issuer).Scan(&has)
	if err != nil {
		return false, fail("check identity", err)
	}
	return has, nil
}

// LinkIdentity links a live user to the issuer's subject. It returns
// ErrConflict when another live user holds the subject, or the user holds
// another subject of the issuer. A deleted account's link is dropped, as a
// deleted account frees its Google account.
func (s *Store) LinkIdentity(ctx context.Context, userID int64, issuer, subject string, now time.Time) error {
	return s.inTx(ctx, "link identity", func(tx *sql.Tx) error {
		return linkIdentity(ctx, tx, userID, issuer, subject, now)
	})
}

func linkIdentity(ctx context.Context, tx *sql.Tx, userID int64, issuer, subject string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM user_identities WHERE issuer = $1 AND subject = $2
		AND user_id IN (SELECT id FROM users WHERE is_deleted)`, issuer, subject); err != nil {
		return fail("drop a deleted account's identity", err)
	}
	res, err := tx.ExecContext(ctx, `
		INSERT INTO user_identities (issuer, subject, user_id, created_at)
		SELECT $1, $2, id, $4 FROM users WHERE id = $3 AND NOT is_deleted`,
		issuer, subject, userID, dbTime(now))
	return mustAffect("link identity", res, err)
}

// ClaimWithIdentity is ClaimWithGoogle for an OpenID Connect identity: the
// unverified live account goes to the identity that proved its address,
// and what an unproven holder set up (password, sessions, links) ends.
func (s *Store) ClaimWithIdentity(ctx context.Context, userID int64, issuer, subject string, now time.Time) error {
	return s.inTx(ctx, "claim account with identity", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE users SET email_verified = TRUE, password = NULL
			WHERE id = $1 AND NOT is_deleted`, userID)
		if err := mustAffect("claim account with identity", res, err); err != nil {
			return err
		}
		if err := endAccess(ctx, tx, userID, ""); err != nil {
			return err
		}
		return linkIdentity(ctx, tx, userID, issuer, subject, now)
	})
}

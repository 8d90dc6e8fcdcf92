package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Second factors (issue 27): a TOTP secret per user, single-use recovery
// codes, and sign-ins waiting for the second factor.

// TwoFactor is what a user has set up as a second factor.
type TwoFactor struct {
	TOTP          bool // a TOTP secret is enabled
	RecoveryCodes int  // unused recovery codes
	Passkeys      int  // WebAuthn credentials, of any relying party
}

// TwoFactorOf returns the second factors of the user.
func (s *Store) TwoFactorOf(ctx context.Context, userID int64) (TwoFactor, error) {
	var f TwoFactor
	err := s.read.QueryRowContext(ctx, `
		SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL),
		       (SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL),
		       (SELECT COUNT(*) FROM webauthn_credentials WHERE user_id = $1)`,
		userID).Scan(&f.TOTP, &f.RecoveryCodes, &f.Passkeys)
	if err != nil {
		return f, fail("read second factors", err)
	}
	return f, nil
}

// SetupTOTP stores secret as the user's TOTP secret waiting to be enabled,
// replacing one set up earlier. It returns ErrConflict when TOTP is
// enabled already.
func (s *Store) SetupTOTP(ctx context.Context, userID int64, secret string, now time.Time) error {
	res, err := s.write.ExecContext(ctx, `
		INSERT INTO user_totp (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
		WHERE user_totp.enabled_at IS NULL`, userID, secret, dbTime(now))
	if err := mustAffect("set up TOTP", res, err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return fail("set up TOTP", ErrConflict)
		}
		return err
	}
	return nil
}

// TOTPSecret returns the user's TOTP secret and whether it is enabled;
// ErrNotFound when none was set up.
func (s *Store) TOTPSecret(ctx context.Context, userID int64) (secret string, enabled bool, err error) {
	err = s.read.QueryRowContext(ctx,
		`SELECT secret, enabled_at IS NOT NULL FROM user_totp WHERE user_id = $1`, userID).Scan(&secret, &enabled)
	if err != nil {
		return "", false, fail("read TOTP secret", err)
	}
	return secret, enabled, nil
}

// EnableTOTP enables the TOTP secret set up for the user, recording step
// (the step of the code that proved it) as used, and replaces the user's
// recovery codes with codeHashes. It returns ErrNotFound when no secret
// waits to be enabled (none set up, or enabled by a parallel request).
func (s *Store) EnableTOTP(ctx context.Context, userID int64, step int64, codeHashes []string, now time.Time) error {
	return s.inTx(ctx, "enable TOTP", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE user_totp SET enabled_at = $2, last_step = $3
			WHERE user_id = $1 AND enabled_at IS NULL`, userID, dbTime(now), step)
		if err := mustAffect("enable TOTP", res, err); err != nil {
			return err
		}
		return replaceRecoveryCodes(ctx, tx, userID, codeHashes)
	})
}

// UseTOTPStep records step as the user's last accepted TOTP step and
// reports whether it was newer than the last one: a code is accepted once,
// and parallel requests with the same code see only one true.
func (s *Store) UseTOTPStep(ctx context.Context, userID int64, step int64) (bool, error) {
	res, err := s.write.ExecContext(ctx, `
		UPDATE user_totp SET last_step = $2
		WHERE user_id = $1 AND enabled_at IS NOT NULL AND last_step < $2`, userID, step)
	if err := mustAffect("use TOTP step", res, err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// DisableTOTP removes the user's TOTP secret and recovery codes.
func (s *Store) DisableTOTP(ctx context.Context, userID int64) error {
	return s.inTx(ctx, "disable TOTP", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM user_totp WHERE user_id = $1`, userID); err != nil {
			return fail("disable TOTP", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return fail("delete recovery codes", err)
		}
		return nil
	})
}

// ReplaceRecoveryCodes replaces every recovery code of the user, used or
// not, with codeHashes.
func (s *Store) ReplaceRecoveryCodes(ctx context.Context, userID int64, codeHashes []string) error {
	return s.inTx(ctx, "replace recovery codes", func(tx *sql.Tx) error {
		return replaceRecoveryCodes(ctx, tx, userID, codeHashes)
	})
}

func replaceRecoveryCodes(ctx context.Context, tx *sql.Tx, userID int64, codeHashes []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fail("delete recovery codes", err)
	}
	for _, h := range codeHashes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
			return fail("add recovery code", err)
		}
	}
	return nil
}

// UseRecoveryCode marks the user's unused recovery code with codeHash used
// and reports whether there was one; a code works once, even in parallel.
func (s *Store) UseRecoveryCode(ctx context.Context, userID int64, codeHash string, now time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `
		UPDATE recovery_codes SET used_at = $3
		WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`, userID, codeHash, dbTime(now))
	if err := mustAffect("use recovery code", res, err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// CreatePendingLogin saves a sign-in of the user waiting for its second
// factor until expiresAt; id is the SHA-256 of the browser's token.
func (s *Store) CreatePendingLogin(ctx context.Context, id string, userID, ssoWorkspaceID int64, now, expiresAt time.Time) error {
	// Expired ones are swept here: each sign-in with 2FA cleans up after others.
	if _, err := s.write.ExecContext(ctx, `DELETE FROM pending_logins WHERE expires_at <= $1`, dbTime(now)); err != nil {
		return fail("delete expired pending logins", err)
	}
	_, err := s.write.ExecContext(ctx, `
		INSERT INTO pending_logins (id, user_id, created_at, expires_at, sso_workspace_id) VALUES ($1, $2, $3, $4, $5)`,
		id, userID, dbTime(now), dbTime(expiresAt), nullID(ssoWorkspaceID))
	if err != nil {
		return fail("create pending login", err)
	}
	return nil
}

// PendingLoginUser returns the live user of an unexpired pending login;
// ErrNotFound otherwise.
func (s *Store) PendingLoginUser(ctx context.Context, id string, now time.Time) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `
		SELECT `+userColumns+`
		FROM pending_logins p JOIN users u ON u.id = p.user_id
		WHERE p.id = $1 AND p.expires_at > $2 AND NOT u.is_deleted AND u.suspended_at IS NULL`, id, dbTime(now)))
	if err != nil {
		return nil, fail("fetch pending login", err)
	}
	return u, nil
}

// EndPendingLogin deletes the pending login and reports whether it was
// still there and unexpired (of parallel completions only one sees true),
// and the workspace whose IdP it began at (0: none).
func (s *Store) EndPendingLogin(ctx context.Context, id string, now time.Time) (ended bool, ssoWorkspaceID int64, err error) {
	var sso sql.NullInt64
	err = s.write.QueryRowContext(ctx, `DELETE FROM pending_logins WHERE id = $1 AND expires_at > $2 RETURNING sso_workspace_id`,
		id, dbTime(now)).Scan(&sso)
	if errors.Is(err, sql.ErrNoRows) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fail("end pending login", err)
	}
	return true, sso.Int64, nil
}

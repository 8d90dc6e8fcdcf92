package store

import (
	"context"
	"database/sql"
	"time"
)

// Passkeys (issue 27): WebAuthn credentials and the ceremonies that
// register and use them.

// WebAuthnCredential is a passkey of a user.
type WebAuthnCredential struct {
	ID           int64
	UserID       int64
	RPID         string // the relying party id it was registered for
	CredentialID string // base64url, as the browser names it
	Name         string
	Data         string // go-webauthn's credential record, JSON
	CreatedAt    time.Time
	LastUsedAt   *time.Time
}

const webauthnColumns = `id, user_id, rp_id, credential_id, name, data, created_at, last_used_at`

func scanWebAuthnCredential(row interface{ Scan(...any) error }) (*WebAuthnCredential, error) {
	var c WebAuthnCredential
	err := row.Scan(&c.ID, &c.UserID, &c.RPID, &c.CredentialID, &c.Name, &c.Data, scanTime(&c.CreatedAt), scanNullTime(&c.LastUsedAt))
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// AddWebAuthnCredential saves a new passkey and fills in its ID. A
// credential id registered before is ErrConflict.
func (s *Store) AddWebAuthnCredential(ctx context.Context, c *WebAuthnCredential) error {
	c.CreatedAt = normTime(c.CreatedAt)
	err := s.write.QueryRowContext(ctx, `
		INSERT INTO webauthn_credentials (user_id, rp_id, credential_id, name, data, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		c.UserID, c.RPID, c.CredentialID, c.Name, c.Data, dbTime(c.CreatedAt)).Scan(&c.ID)
	if err != nil {
		return fail("add passkey", err)
	}
	return nil
}

// WebAuthnCredentials returns the user's passkeys, oldest first; rpID ""
// means those of every relying party.
func (s *Store) WebAuthnCredentials(ctx context.Context, userID int64, rpID string) ([]WebAuthnCredential, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+webauthnColumns+` FROM webauthn_credentials
		WHERE user_id = $1 AND ($2 = '' OR rp_id = $2) ORDER BY id`, userID, rpID)
	if err != nil {
		return nil, fail("list passkeys", err)
	}
	defer rows.Close()
	var list []WebAuthnCredential
	for rows.Next() {
		c, err := scanWebAuthnCredential(rows)
		if err != nil {
			return nil, fail("list passkeys", err)
		}
		list = append(list, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list passkeys", err)
	}
	return list, nil
}

// UseWebAuthnCredential stores a passkey's record after a sign-in with it
// (its new sign count) and when it was used.
func (s *Store) UseWebAuthnCredential(ctx context.Context, id int64, data string, now time.Time) error {
	res, err := s.write.ExecContext(ctx,
		`UPDATE webauthn_credentials SET data = $2, last_used_at = $3 WHERE id = $1`, id, data, dbTime(now))
	return mustAffect("use passkey", res, err)
}

// DeleteWebAuthnCredential removes one of the user's passkeys;
// ErrNotFound when the user has no such passkey.
func (s *Store) DeleteWebAuthnCredential(ctx context.Context, userID, id int64) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM webauthn_credentials WHERE id = $1 AND user_id = $2`, id, userID)
	return mustAffect("delete passkey", res, err)
}

// WebAuthnCeremony is a registration or sign-in between its begin and
// finish calls.
type WebAuthnCeremony struct {
	ID        string // SHA-256 of the browser's token
	UserID    int64  // 0 = a sign-in by passkey alone
	Kind      string // "register" or "login"
	Name      string // the passkey's name, for a registration
	Data      string // go-webauthn's session data, JSON
	ExpiresAt time.Time
}

// CreateWebAuthnCeremony saves a ceremony, sweeping expired ones first.
func (s *Store) CreateWebAuthnCeremony(ctx context.Context, c *WebAuthnCeremony, now time.Time) error {
	if _, err := s.write.ExecContext(ctx, `DELETE FROM webauthn_ceremonies WHERE expires_at <= $1`, dbTime(now)); err != nil {
		return fail("delete expired ceremonies", err)
	}
	var userID any
	if c.UserID != 0 {
		userID = c.UserID
	}
	_, err := s.write.ExecContext(ctx, `
		INSERT INTO webauthn_ceremonies (id, user_id, kind, name, data, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.ID, userID, c.Kind, c.Name, c.Data, dbTime(c.ExpiresAt))
	if err != nil {
		return fail("create ceremony", err)
	}
	return nil
}

// TakeWebAuthnCeremony removes and returns the unexpired ceremony of the
// kind: each is answered once, even by parallel requests. ErrNotFound
// otherwise.
func (s *Store) TakeWebAuthnCeremony(ctx context.Context, id, kind string, now time.Time) (*WebAuthnCeremony, error) {
	c := WebAuthnCeremony{ID: id, Kind: kind}
	var userID sql.NullInt64
	err := s.write.QueryRowContext(ctx, `
		DELETE FROM webauthn_ceremonies WHERE id = $1 AND kind = $2 AND expires_at > $3
		RETURNING user_id, name, data, expires_at`, id, kind, dbTime(now)).Scan(&userID, &c.Name, &c.Data, scanTime(&c.ExpiresAt))
	if err != nil {
		return nil, fail("take ceremony", err)
	}
	c.UserID = userID.Int64
	return &c, nil
}

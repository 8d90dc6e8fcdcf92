package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"time"
)

// KeyParts is what is kept of an API key: its SHA-256 (hex), and the prefix
// and last 4 characters that let its owner recognise it.
type KeyParts struct {
	Hash, Prefix, Last4 string
}

// APIKey is a user's personal key for the public API.
type APIKey struct {
	ID            int64
	UserID        int64
	Name          string
	Prefix, Last4 string
	CreatedAt     time.Time
}

// CreateAPIKey saves a user's new key and fills in ID and CreatedAt.
func (s *Store) CreateAPIKey(ctx context.Context, k *APIKey, hash string, now time.Time) error {
	k.CreatedAt = normTime(now)
	err := s.write.QueryRowContext(ctx, `
		INSERT INTO api_keys (user_id, name, key_hash, prefix, last4, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		k.UserID, k.Name, hash, k.Prefix, k.Last4, dbTime(now)).Scan(&k.ID)
	if err != nil {
		return fail("create API key", err)
	}
	return nil
}

// APIKeys returns a user's keys, newest first.
func (s *Store) APIKeys(ctx context.Context, userID int64) ([]*APIKey, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, user_id, name, prefix, last4, created_at FROM api_keys
		WHERE user_id = $1 ORDER BY id DESC`, userID)
	if err != nil {
		return nil, fail("list API keys", err)
	}
	defer rows.Close()
	list := []*APIKey{}
	for rows.Next() {
		k := new(APIKey)
		if err := rows.Scan(&k.ID, &k.UserID, &k.Name, &k.Prefix, &k.Last4, scanTime(&k.CreatedAt)); err != nil {
			return nil, fail("list API keys", err)
		}
		list = append(list, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list API keys", err)
	}
	return list, nil
}

// DeleteAPIKey revokes one of a user's keys. ErrNotFound when it is not theirs.
func (s *Store) DeleteAPIKey(ctx context.Context, userID, id int64) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM api_keys WHERE id = $1 AND user_id = $2`, id, userID)
	return mustAffect("delete API key", res, err)
}

// APIKeyUser returns the live account a key acts as, by the key's hash: a
// personal key's owner, or an active client's own account. ErrNotFound
// for an unknown or revoked key, a deleted user or an inactive client.
func (s *Store) APIKeyUser(ctx context.Context, hash string) (*User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, `
		SELECT `+userColumns+` FROM users u
		WHERE NOT u.is_deleted AND u.id IN (
			SELECT k.user_id FROM api_keys k WHERE k.key_hash = $1
			UNION ALL
			SELECT c.api_user_id FROM clients c WHERE c.api_key = $1 AND c.is_active)`, hash))
	if err != nil {
		return nil, fail("fetch API key user", err)
	}
	return u, nil
}

// newMarker is a random hex string, for unique placeholders.
func newMarker() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"strconv"
	"time"
)

// KeyParts is what is kept of an API key: its SHA-256 (hex), and the prefix
// and last 4 characters that let its owner recognise it.
type KeyParts struct {
	Hash, Prefix, Last4 string
}

// APIKey is a workspace's key for the public API.
type APIKey struct {
	ID            int64
	WorkspaceID   int64
	UserID        int64 // who made it
	Name          string
	Prefix, Last4 string
	CreatedAt     time.Time
}

// CreateAPIKey saves a workspace's new key and fills in ID and CreatedAt.
func (s *Store) CreateAPIKey(ctx context.Context, k *APIKey, hash string, now time.Time) error {
	k.CreatedAt = normTime(now)
	return s.inTx(ctx, "create API key", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			INSERT INTO api_keys (workspace_id, user_id, name, key_hash, prefix, last4, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			k.WorkspaceID, k.UserID, k.Name, hash, k.Prefix, k.Last4, dbTime(now)).Scan(&k.ID)
		if err != nil {
			return fail("create API key", err)
		}
		return s.audit(ctx, tx, k.WorkspaceID, "api_key.created", Target{"api_key", k.ID, k.Name}, nil)
	})
}

// APIKeys returns a workspace's keys, newest first.
func (s *Store) APIKeys(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, workspace_id, user_id, name, prefix, last4, created_at FROM api_keys
		WHERE workspace_id = $1 ORDER BY id DESC`, workspaceID)
	if err != nil {
		return nil, fail("list API keys", err)
	}
	defer rows.Close()
	list := []*APIKey{}
	for rows.Next() {
		k := new(APIKey)
		if err := rows.Scan(&k.ID, &k.WorkspaceID, &k.UserID, &k.Name, &k.Prefix, &k.Last4, scanTime(&k.CreatedAt)); err != nil {
			return nil, fail("list API keys", err)
		}
		list = append(list, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list API keys", err)
	}
	return list, nil
}

// DeleteAPIKey revokes one of a workspace's keys. ErrNotFound when it is
// not the workspace's.
func (s *Store) DeleteAPIKey(ctx context.Context, workspaceID, id int64) error {
	return s.deleteAudited(ctx, "api_keys", "name", "api_key", "api_key.revoked", workspaceID, id)
}

// APIKeyAccess is what a valid key acts as: its workspace (Role is what
// keys may do: an editor's work on codes), the user who made it (or the
// client's own account), and the key's id (0 for a client's key).
type APIKeyAccess struct {
	User      *User
	Workspace *Workspace
	KeyID     int64
}

// APIKeyAccess returns what the key with the given hash acts as: a
// workspace key's workspace, or an active client's own account and its
// personal workspace. ErrNotFound for an unknown or revoked key, a deleted
// workspace or an inactive client. A key outlives its maker's membership:
// it is the workspace's.
func (s *Store) APIKeyAccess(ctx context.Context, hash string) (*APIKeyAccess, error) {
	a := &APIKeyAccess{}
	var wsID, userID int64
	err := s.read.QueryRowContext(ctx, `
		SELECT k.id, k.workspace_id, k.user_id FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
		WHERE k.key_hash = $1 AND NOT w.is_deleted
		UNION ALL
		SELECT 0, w.id, c.api_user_id FROM clients c JOIN workspaces w ON w.personal_user_id = c.api_user_id
		WHERE c.api_key = $1 AND c.is_active AND NOT w.is_deleted`, hash).Scan(&a.KeyID, &wsID, &userID)
	if err != nil {
		return nil, fail("fetch API key", err)
	}
	if a.User, err = s.User(ctx, userID); err != nil {
		return nil, err
	}
	w, err := scanWorkspace(s.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+`
		FROM workspaces w JOIN (SELECT 'editor' AS role, FALSE AS alert_emails) m ON TRUE WHERE w.id = $1`, wsID))
	if err != nil {
		return nil, fail("fetch API key workspace", err)
	}
	a.Workspace = w
	return a, nil
}

// newMarker is a random hex string, for unique placeholders.
func newMarker() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

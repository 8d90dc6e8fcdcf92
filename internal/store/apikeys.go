package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"strconv"
	"strings"
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
	KeyLimits
	// Who made it, as the key list shows them: their address (username)
	// and name.
	CreatorEmail, CreatorName string
}

// KeyLimits narrow what a key may do below its maker's role.
type KeyLimits struct {
	// Scopes the key may use; nil: every one the maker's role allows.
	Scopes []string
	// FolderID is the one folder whose codes the key sees, changes and
	// creates; nil: the whole workspace.
	FolderID *int64
	// ExpiresAt is when the key stops working; nil: never.
	ExpiresAt *time.Time
}

// scopesColumn is how api_keys.scopes keeps Scopes: space-separated, NULL
// for nil.
func (l KeyLimits) scopesColumn() any {
	if l.Scopes == nil {
		return nil
	}
	return strings.Join(l.Scopes, " ")
}

// readScopes sets Scopes from api_keys.scopes.
func (l *KeyLimits) readScopes(scopes sql.NullString) {
	if scopes.Valid {
		l.Scopes = strings.Fields(scopes.String)
	}
}

// CreateAPIKey saves a workspace's new key and fills in ID and CreatedAt;
// ErrLimit when the workspace already has limit keys.
func (s *Store) CreateAPIKey(ctx context.Context, k *APIKey, hash string, limit int, now time.Time) error {
	k.CreatedAt = normTime(now)
	return s.inTx(ctx, "create API key", func(tx *sql.Tx) error {
		// Counted under the workspace's lock, so parallel creations cannot
		// pass the limit together.
		if err := s.lockWorkspace(ctx, tx, k.WorkspaceID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM api_keys WHERE workspace_id = $1`, k.WorkspaceID).Scan(&n); err != nil {
			return fail("count API keys", err)
		}
		if n >= limit {
			return ErrLimit
		}
		err := tx.QueryRowContext(ctx, `
			INSERT INTO api_keys (workspace_id, user_id, name, key_hash, prefix, last4, created_at, scopes, folder_id, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			k.WorkspaceID, k.UserID, k.Name, hash, k.Prefix, k.Last4, dbTime(now),
			k.scopesColumn(), k.FolderID, dbTimePtr(k.ExpiresAt)).Scan(&k.ID)
		if err != nil {
			return fail("create API key", err)
		}
		return s.audit(ctx, tx, k.WorkspaceID, "api_key.created", Target{"api_key", k.ID, k.Name}, nil)
	})
}

// APIKeys returns a workspace's keys, newest first.
func (s *Store) APIKeys(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT k.id, k.workspace_id, k.user_id, k.name, k.prefix, k.last4, k.created_at,
			k.scopes, k.folder_id, k.expires_at, u.username, trim(u.first_name || ' ' || u.last_name)
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.workspace_id = $1 ORDER BY k.id DESC`, workspaceID)
	if err != nil {
		return nil, fail("list API keys", err)
	}
	defer rows.Close()
	list := []*APIKey{}
	for rows.Next() {
		k := new(APIKey)
		var scopes sql.NullString
		if err := rows.Scan(&k.ID, &k.WorkspaceID, &k.UserID, &k.Name, &k.Prefix, &k.Last4, scanTime(&k.CreatedAt),
			&scopes, &k.FolderID, scanNullTime(&k.ExpiresAt), &k.CreatorEmail, &k.CreatorName); err != nil {
			return nil, fail("list API keys", err)
		}
		k.readScopes(scopes)
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

// APIKeyAccess is what a valid key acts as: its workspace, the user who
// made it (or the client's own account), and the key's id (0 for a
// client's key). Workspace.Role is what the key may do there.
type APIKeyAccess struct {
	User      *User
	Workspace *Workspace
	KeyID     int64
	KeyLimits
}

// APIKeyAccess returns what the key with the given hash acts as: a
// workspace key's workspace, or an active client's own account and its
// personal workspace. A key acts with the role its maker has in the
// workspace now, at most an editor's: a maker demoted to viewer makes it a
// viewer's key. ErrNotFound for an unknown or revoked key, a deleted
// workspace, an inactive client, or a maker who is no longer a member
// (RemoveMember and account deletion also delete their keys). An expired
// key is returned with its ExpiresAt: the caller tells it apart.
func (s *Store) APIKeyAccess(ctx context.Context, hash string) (*APIKeyAccess, error) {
	a := &APIKeyAccess{}
	var wsID, userID int64
	var scopes sql.NullString
	err := s.read.QueryRowContext(ctx, `
		SELECT k.id, k.workspace_id, k.user_id, k.scopes, k.folder_id, k.expires_at FROM api_keys k WHERE k.key_hash = $1
		UNION ALL
		SELECT 0, w.id, c.api_user_id, NULL, NULL, NULL FROM clients c JOIN workspaces w ON w.personal_user_id = c.api_user_id
		WHERE c.api_key = $1 AND c.is_active`, hash).Scan(&a.KeyID, &wsID, &userID, &scopes, &a.FolderID, scanNullTime(&a.ExpiresAt))
	if err != nil {
		return nil, fail("fetch API key", err)
	}
	a.readScopes(scopes)
	if a.User, err = s.User(ctx, userID); err != nil {
		return nil, err
	}
	// A live workspace the maker is still a member of, with their role.
	if a.Workspace, err = s.MemberWorkspace(ctx, userID, wsID); err != nil {
		return nil, err
	}
	if a.Workspace.Role != RoleViewer {
		a.Workspace.Role = RoleEditor
	}
	return a, nil
}

// newMarker is a random hex string, for unique placeholders.
func newMarker() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

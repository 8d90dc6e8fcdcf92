package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Share links (package sharelinks): read-only analytics pages of a code, a
// tag's codes, a folder's codes or the whole workspace, opened without
// signing in. The store keeps the token's hash only; a revoked link keeps
// its row, so its page can tell it was revoked.

// ShareLink is one share link. At most one of CodeID, TagID and FolderID
// is set; none means the whole workspace.
type ShareLink struct {
	ID, WorkspaceID         int64
	TokenHash, TokenHint    string
	CodeID, TagID, FolderID int64
	ScopeName               string // the code's, tag's or folder's name, when listed
	PasswordHash            string
	ExpiresAt, RevokedAt    *time.Time
	CreatedBy               int64 // 0 once the member's account is gone
	CreatedAt               time.Time
}

// Query is the link's scope as a scan query of its workspace.
func (l *ShareLink) Query() ScanQuery {
	return ScanQuery{WorkspaceID: l.WorkspaceID, CodeID: l.CodeID, TagID: l.TagID, FolderID: l.FolderID}
}

// CreateShareLink saves l, a link of l.WorkspaceID, and fills in ID and
// CreatedAt. A scope that is not the workspace's (a deleted code, another
// workspace's tag) is ErrNotFound; a workspace with limit live links
// (neither revoked nor expired, nor of a deleted code: those answer 410
// and the code may come back with a bulk edit's undo) already is ErrLimit,
// counted with the workspace's row locked so concurrent creations cannot
// both pass it.
func (s *Store) CreateShareLink(ctx context.Context, l *ShareLink, limit int, now time.Time) error {
	l.CreatedAt = normTime(now)
	return s.inTx(ctx, "create share link", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, l.WorkspaceID); err != nil {
			return err
		}
		scope, id, name, err := scopeName(ctx, tx, l.WorkspaceID, l.CodeID, l.TagID, l.FolderID)
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM share_links l WHERE l.workspace_id = $1 AND l.revoked_at IS NULL
			AND (l.expires_at IS NULL OR l.expires_at > $2)
			AND NOT EXISTS (SELECT 1 FROM dynamic_qr_codes d WHERE d.id = l.code_id AND d.is_deleted)`, l.WorkspaceID, dbTime(now)).Scan(&n); err != nil {
			return fail("count share links", err)
		}
		if n >= limit {
			return ErrLimit
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO share_links (workspace_id, token_hash, token_hint, code_id, tag_id, folder_id, password_hash, expires_at, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			l.WorkspaceID, l.TokenHash, l.TokenHint, nullID(l.CodeID), nullID(l.TagID), nullID(l.FolderID), l.PasswordHash,
			dbTimePtr(l.ExpiresAt), nullID(l.CreatedBy), dbTime(l.CreatedAt)).Scan(&l.ID)
		if err != nil {
			return fail("create share link", err)
		}
		l.ScopeName = name
		details := map[string]any{"scope": scope, "scopeId": id, "password": l.PasswordHash != ""}
		if l.ExpiresAt != nil {
			details["expiresAt"] = l.ExpiresAt.UTC().Format(time.RFC3339)
		}
		return s.audit(ctx, tx, l.WorkspaceID, "share_link.created", Target{"share_link", l.ID, l.TokenHint}, details)
	})
}

const shareLinkColumns = `l.id, l.workspace_id, l.token_hash, l.token_hint, COALESCE(l.code_id, 0), COALESCE(l.tag_id, 0),
	COALESCE(l.folder_id, 0), COALESCE(d.name, t.name, f.name, ''), l.password_hash, l.expires_at, COALESCE(l.created_by, 0),
	l.created_at, l.revoked_at`

// shareScopeJoins brings in the scope's name for shareLinkColumns.
const shareScopeJoins = `LEFT JOIN dynamic_qr_codes d ON d.id = l.code_id LEFT JOIN tags t ON t.id = l.tag_id
	LEFT JOIN folders f ON f.id = l.folder_id`

func scanShareLink(scan func(...any) error) (*ShareLink, error) {
	l := new(ShareLink)
	err := scan(&l.ID, &l.WorkspaceID, &l.TokenHash, &l.TokenHint, &l.CodeID, &l.TagID, &l.FolderID, &l.ScopeName,
		&l.PasswordHash, scanNullTime(&l.ExpiresAt), &l.CreatedBy, scanTime(&l.CreatedAt), scanNullTime(&l.RevokedAt))
	return l, err
}

// ShareLinks lists the workspace's links that are not revoked, newest
// first, with their scope's name.
func (s *Store) ShareLinks(ctx context.Context, workspaceID int64) ([]*ShareLink, error) {
	list := []*ShareLink{}
	err := s.eachRow(ctx, "list share links", `
		SELECT `+shareLinkColumns+` FROM share_links l `+shareScopeJoins+`
		WHERE l.workspace_id = $1 AND l.revoked_at IS NULL ORDER BY l.id DESC`, []any{workspaceID},
		func(rows *sql.Rows) error {
			l, err := scanShareLink(rows.Scan)
			if err != nil {
				return err
			}
			list = append(list, l)
			return nil
		})
	return list, err
}

// ShareLinkByToken reads the link whose token hashes to tokenHash, revoked
// and expired ones included: ErrNotFound when there is none, or its
// workspace is deleted.
func (s *Store) ShareLinkByToken(ctx context.Context, tokenHash string) (*ShareLink, error) {
	l, err := scanShareLink(s.read.QueryRowContext(ctx, `SELECT `+shareLinkColumns+` FROM share_links l `+shareScopeJoins+`
		JOIN workspaces w ON w.id = l.workspace_id AND NOT w.is_deleted WHERE l.token_hash = $1`, tokenHash).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fail("read a share link", err)
	}
	return l, nil
}

// endShareLinksOf ends the links of the tag or folder (column tag_id or
// folder_id) about to be deleted: revoked, their scope's id cleared so the
// row outlives the scope's ON DELETE CASCADE and the page answers 410,
// as for a deleted code's links, rather than 404. A revoked link never
// shows a report, so the cleared scope widens nothing.
func endShareLinksOf(ctx context.Context, tx *sql.Tx, column string, workspaceID, id int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE share_links SET revoked_at = COALESCE(revoked_at, $3), `+column+` = NULL
		WHERE `+column+` = $1 AND workspace_id = $2`, id, workspaceID, dbTime(now))
	return failOrNil("end a deleted scope's share links", err)
}

// RevokeShareLink revokes one of the workspace's links from now on:
// ErrNotFound when it is not the workspace's or is revoked already.
func (s *Store) RevokeShareLink(ctx context.Context, workspaceID, id int64, now time.Time) error {
	return s.inTx(ctx, "revoke share link", func(tx *sql.Tx) error {
		var hint string
		err := tx.QueryRowContext(ctx, `UPDATE share_links SET revoked_at = $3
			WHERE id = $1 AND workspace_id = $2 AND revoked_at IS NULL RETURNING token_hint`,
			id, workspaceID, dbTime(now)).Scan(&hint)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		} else if err != nil {
			return fail("revoke share link", err)
		}
		return s.audit(ctx, tx, workspaceID, "share_link.revoked", Target{"share_link", id, hint}, nil)
	})
}

// scopeName reads the name of a report's scope in the workspace (a live
// code, a tag or a folder; none set is the workspace, named ""), and
// what the audit log calls the scope: ErrNotFound when it is not the
// workspace's.
func scopeName(ctx context.Context, tx *sql.Tx, workspaceID, codeID, tagID, folderID int64) (scope string, id int64, name string, err error) {
	scope, id = "workspace", workspaceID
	switch {
	case codeID > 0:
		scope, id = "dynamic_code", codeID
		err = tx.QueryRowContext(ctx, `SELECT name FROM dynamic_qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
			codeID, workspaceID).Scan(&name)
	case tagID > 0:
		scope, id = "tag", tagID
		err = tx.QueryRowContext(ctx, `SELECT name FROM tags WHERE id = $1 AND workspace_id = $2`, tagID, workspaceID).Scan(&name)
	case folderID > 0:
		scope, id = "folder", folderID
		err = tx.QueryRowContext(ctx, `SELECT name FROM folders WHERE id = $1 AND workspace_id = $2`, folderID, workspaceID).Scan(&name)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, "", ErrNotFound
	} else if err != nil {
		return "", 0, "", fail("read a report's scope", err)
	}
	return scope, id, name, nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Brand kits (issue 26 item 3): a workspace's saved designs, applied to
// codes in one step. Names are unique per workspace, ignoring case
// (ErrConflict); at most one kit is the workspace's default.

// ErrKitLimit is returned when the workspace already has as many brand
// kits as it may.
var ErrKitLimit = errors.New("store: brand kit limit reached")

// BrandKit is a workspace's saved design. Style is the style fields as the
// API names them, a JSON object the store keeps as it is given.
type BrandKit struct {
	ID           int64
	Name         string
	Style        string
	LogoID       *int64 // one of the workspace's uploaded logos
	LogoFileName string // the logo's, read only
	IsDefault    bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

const brandKitSelect = `
	SELECT k.id, k.name, k.style, k.logo_id, COALESCE(b.file_name, ''), k.is_default, k.created_at, k.updated_at
	FROM brand_kits k LEFT JOIN blobs b ON b.id = k.logo_id`

func scanBrandKit(sc interface{ Scan(...any) error }) (*BrandKit, error) {
	k := new(BrandKit)
	var logo sql.NullInt64
	err := sc.Scan(&k.ID, &k.Name, &k.Style, &logo, &k.LogoFileName, &k.IsDefault, scanTime(&k.CreatedAt), scanTime(&k.UpdatedAt))
	if logo.Valid {
		k.LogoID = &logo.Int64
	}
	return k, err
}

// BrandKits returns the workspace's brand kits by name.
func (s *Store) BrandKits(ctx context.Context, workspaceID int64) ([]*BrandKit, error) {
	rows, err := s.read.QueryContext(ctx, brandKitSelect+` WHERE k.workspace_id = $1 ORDER BY lower(k.name), k.id`, workspaceID)
	if err != nil {
		return nil, fail("list brand kits", err)
	}
	defer rows.Close()
	list := []*BrandKit{}
	for rows.Next() {
		k, err := scanBrandKit(rows)
		if err != nil {
			return nil, fail("list brand kits", err)
		}
		list = append(list, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list brand kits", err)
	}
	return list, nil
}

// BrandKit returns one of the workspace's brand kits (ErrNotFound for
// another workspace's).
func (s *Store) BrandKit(ctx context.Context, workspaceID, id int64) (*BrandKit, error) {
	k, err := scanBrandKit(s.read.QueryRowContext(ctx, brandKitSelect+` WHERE k.id = $1 AND k.workspace_id = $2`, id, workspaceID))
	if err != nil {
		return nil, fail("fetch brand kit", err)
	}
	return k, nil
}

// clearDefault makes no kit of the workspace but keep its default.
func clearDefault(ctx context.Context, tx *sql.Tx, workspaceID, keep int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE brand_kits SET is_default = $3 WHERE workspace_id = $1 AND is_default AND id <> $2`,
		workspaceID, keep, false)
	if err != nil {
		return fail("clear default brand kit", err)
	}
	return nil
}

// CreateBrandKit saves a new kit of the workspace, which may hold at most
// limit (ErrKitLimit), and fills in ID and the times. A new default takes
// over from the old one in the same transaction.
func (s *Store) CreateBrandKit(ctx context.Context, workspaceID int64, k *BrandKit, limit int, now time.Time) error {
	k.CreatedAt, k.UpdatedAt = normTime(now), normTime(now)
	return s.inTx(ctx, "create brand kit", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM brand_kits WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
			return fail("count brand kits", err)
		}
		if n >= limit {
			return ErrKitLimit
		}
		if k.IsDefault {
			if err := clearDefault(ctx, tx, workspaceID, 0); err != nil {
				return err
			}
		}
		err := tx.QueryRowContext(ctx, `
			INSERT INTO brand_kits (workspace_id, name, style, logo_id, is_default, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			workspaceID, k.Name, k.Style, k.LogoID, k.IsDefault, dbTime(k.CreatedAt), dbTime(k.UpdatedAt)).Scan(&k.ID)
		if err != nil {
			return fail("create brand kit", err)
		}
		return s.audit(ctx, tx, workspaceID, "brand_kit.created", Target{"brand_kit", k.ID, k.Name}, map[string]any{"isDefault": k.IsDefault})
	})
}

// UpdateBrandKit replaces the name, style, logo and default of one of the
// workspace's kits and fills in UpdatedAt and CreatedAt.
func (s *Store) UpdateBrandKit(ctx context.Context, workspaceID int64, k *BrandKit, now time.Time) error {
	k.UpdatedAt = normTime(now)
	return s.inTx(ctx, "update brand kit", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var oldName, oldStyle string
		var wasDefault bool
		err := tx.QueryRowContext(ctx, `SELECT name, style, is_default, created_at FROM brand_kits WHERE id = $1 AND workspace_id = $2`,
			k.ID, workspaceID).Scan(&oldName, &oldStyle, &wasDefault, scanTime(&k.CreatedAt))
		if err != nil {
			return fail("update brand kit", err)
		}
		if k.IsDefault {
			if err := clearDefault(ctx, tx, workspaceID, k.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE brand_kits SET name = $2, style = $3, logo_id = $4, is_default = $5, updated_at = $6 WHERE id = $1`,
			k.ID, k.Name, k.Style, k.LogoID, k.IsDefault, dbTime(k.UpdatedAt))
		if err != nil {
			return fail("update brand kit", err)
		}
		details := map[string]any{}
		if oldName != k.Name {
			details = change("name", oldName, k.Name)
		}
		if oldStyle != k.Style {
			details["styleChanged"] = true
		}
		if wasDefault != k.IsDefault {
			details["isDefault"] = map[string]any{"before": wasDefault, "after": k.IsDefault}
		}
		return s.audit(ctx, tx, workspaceID, "brand_kit.updated", Target{"brand_kit", k.ID, k.Name}, details)
	})
}

// DeleteBrandKit deletes one of the workspace's kits; codes made with it
// keep their style.
func (s *Store) DeleteBrandKit(ctx context.Context, workspaceID, id int64) error {
	return s.deleteAudited(ctx, "brand_kits", "name", "brand_kit", "brand_kit.deleted", workspaceID, id)
}

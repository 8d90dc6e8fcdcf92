package store

import (
	"context"
	"database/sql"
	"time"
)

// UTM presets (issue 23 item 3): a workspace's saved sets of UTM
// parameters, which the Destination tab's builder fills its fields from.
// Names are unique per workspace, ignoring case (ErrConflict).

// UTMPreset is a workspace's saved set of UTM parameters.
type UTMPreset struct {
	ID                                      int64
	Name                                    string
	Source, Medium, Campaign, Term, Content string
	CreatedAt                               time.Time
}

// UTMPresets returns the workspace's presets by name.
func (s *Store) UTMPresets(ctx context.Context, workspaceID int64) ([]*UTMPreset, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT id, name, source, medium, campaign, term, content, created_at
		FROM utm_presets WHERE workspace_id = $1 ORDER BY lower(name), id`, workspaceID)
	if err != nil {
		return nil, fail("list UTM presets", err)
	}
	defer rows.Close()
	list := []*UTMPreset{}
	for rows.Next() {
		p := new(UTMPreset)
		if err := rows.Scan(&p.ID, &p.Name, &p.Source, &p.Medium, &p.Campaign, &p.Term, &p.Content, scanTime(&p.CreatedAt)); err != nil {
			return nil, fail("list UTM presets", err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list UTM presets", err)
	}
	return list, nil
}

// CreateUTMPreset saves a new preset of the workspace and fills in ID and
// CreatedAt. A workspace with limit presets already gets ErrLimit: the
// count and the insert share a transaction with the workspace's row
// locked, so concurrent creations cannot both pass at the limit.
func (s *Store) CreateUTMPreset(ctx context.Context, workspaceID int64, p *UTMPreset, limit int, now time.Time) error {
	p.CreatedAt = normTime(now)
	return s.inTx(ctx, "create UTM preset", func(tx *sql.Tx) error {
		if err := s.lockWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM utm_presets WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
			return fail("count UTM presets", err)
		}
		if n >= limit {
			return ErrLimit
		}
		err := tx.QueryRowContext(ctx, `
			INSERT INTO utm_presets (workspace_id, name, source, medium, campaign, term, content, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			workspaceID, p.Name, p.Source, p.Medium, p.Campaign, p.Term, p.Content, dbTime(p.CreatedAt)).Scan(&p.ID)
		if err != nil {
			return fail("create UTM preset", err)
		}
		return s.audit(ctx, tx, workspaceID, "utm_preset.created", Target{"utm_preset", p.ID, p.Name}, map[string]any{
			"source": p.Source, "medium": p.Medium, "campaign": p.Campaign, "term": p.Term, "content": p.Content,
		})
	})
}

// DeleteUTMPreset deletes one of the workspace's presets.
func (s *Store) DeleteUTMPreset(ctx context.Context, workspaceID, id int64) error {
	return s.deleteAudited(ctx, "utm_presets", "name", "utm_preset", "utm_preset.deleted", workspaceID, id)
}

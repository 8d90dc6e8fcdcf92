package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"
)

// RenameQRCode changes the name of the workspace's live static code and
// returns the code.
func (s *Store) RenameQRCode(ctx context.Context, workspaceID, id int64, name string) (*QRCode, error) {
	return s.updateQRCode(ctx, "rename QR code", workspaceID, id, `name = $3`, name)
}

// DeleteQRCode soft-deletes the workspace's live static code: it leaves the
// dashboard and the counts, its row and history stay.
func (s *Store) DeleteQRCode(ctx context.Context, workspaceID, id int64, now time.Time) error {
	return s.inTx(ctx, "delete QR code", func(tx *sql.Tx) error {
		var name string
		err := tx.QueryRowContext(ctx,
			`UPDATE qr_codes SET is_deleted = TRUE, deleted_at = $3 WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted RETURNING name`,
			id, workspaceID, dbTime(now)).Scan(&name)
		if err != nil {
			return fail("delete QR code", err)
		}
		if err := s.audit(ctx, tx, workspaceID, "code.deleted", Target{"code", id, name}, nil); err != nil {
			return err
		}
		code := webhookCode{ID: "s_" + strconv.FormatInt(id, 10), Kind: "static", Name: name}
		return s.EnqueueWebhookEvent(ctx, tx, workspaceID, EventCodeDeleted, code)
	})
}

// updateQRCode runs an UPDATE … SET set on the workspace's live static
// code, records what changed, and returns the code as it is afterwards.
func (s *Store) updateQRCode(ctx context.Context, action string, workspaceID, id int64, set string, args ...any) (*QRCode, error) {
	var q *QRCode
	err := s.inTx(ctx, action, func(tx *sql.Tx) (err error) {
		q, err = s.updateQRCodeIn(ctx, tx, action, workspaceID, id, set, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return q, s.withTags(ctx, []*QRCode{q}, nil)
}

// updateQRCodeIn is updateQRCode's change in tx.
func (s *Store) updateQRCodeIn(ctx context.Context, tx *sql.Tx, action string, workspaceID, id int64, set string, args ...any) (*QRCode, error) {
	read := func() (*QRCode, error) {
		return scanQRCode(tx.QueryRowContext(ctx,
			`SELECT `+qrCodeColumns+` FROM qr_codes WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`, id, workspaceID))
	}
	before, err := read()
	if err != nil {
		return nil, fail(action, err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE qr_codes SET `+set+` WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`,
		append([]any{id, workspaceID}, args...)...)
	if err := mustAffect(action, res, err); err != nil {
		return nil, err
	}
	if err := refreshSearch(ctx, tx, staticKind, `id = $1`, id); err != nil {
		return nil, err
	}
	q, err := read()
	if err != nil {
		return nil, fail(action, err)
	}
	if err := s.auditChanges(ctx, tx, workspaceID, Target{"code", id, q.Name}, staticState(before), staticState(q)); err != nil {
		return nil, err
	}
	return q, s.codeEvents(ctx, tx, workspaceID, staticEventCode(q), staticState(before), staticState(q))
}
